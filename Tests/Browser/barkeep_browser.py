"""What every browser check of the web dashboard shares: a headless chromium driven through chromium-driver,
waits with a deadline (never a fixed sleep), sign-in, and axe-core's verdict on a page.

The Swift tests run the scripts of this directory through BrowserTools, which puts the browser's and the
driver's paths in BARKEEP_CHROMIUM and BARKEEP_CHROMEDRIVER.
"""

import os

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# axe-core's impacts that fail a page (minor and moderate are reported, not failed).
FAILING_IMPACTS = ("serious", "critical")


def start(width=1280, height=900):
    """A headless chromium. As root (the CI machines), chromium runs only without its sandbox."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ["BARKEEP_CHROMIUM"]
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     f"--window-size={width},{height}", "--lang=en-US"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ["BARKEEP_CHROMEDRIVER"]), options=options)
    driver.set_page_load_timeout(30)
    return driver


def color_scheme(driver, scheme):
    """Emulates the system's `light` or `dark` setting (prefers-color-scheme) for the pages that follow."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def wait_until(driver, condition, seconds=5.0, message="condition"):
    """Polls `condition(driver)` until it is truthy or the deadline passes (then raises, naming `message`)."""
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition, message)


def sign_in(driver, base_url, token, next_path="/"):
    """Signs in through the form (the token typed into the password field, never put in a URL)."""
    driver.get(base_url + "/signin?next=" + next_path)
    form = driver.find_element(By.CSS_SELECTOR, "form#signin")
    field = form.find_element(By.CSS_SELECTOR, "input[type=password]")
    field.send_keys(token)
    form.submit()
    wait_until(driver, lambda d: "/signin" not in d.current_url, message="the sign-in to leave the form")


def axe_violations(driver):
    """axe-core's serious and critical violations on the current page: [(rule id, impact, first target)]."""
    axe = Axe(driver)
    axe.inject()
    result = axe.run()
    return [(v["id"], v["impact"], (v["nodes"][0]["target"] if v["nodes"] else []))
            for v in result["violations"] if v["impact"] in FAILING_IMPACTS]


def script_errors(driver):
    """The browser console's errors since the last call (a CSP refusal shows here too)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
