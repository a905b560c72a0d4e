import BarkeepCore
import Testing

@Suite("SDKCheckParser")
struct SDKCheckParserTests {
    private func parse(_ text: String) throws(CoreError) -> SDKCheckReport {
        try SDKCheckParser.parse(Array(text.utf8))
    }

    @Test("reads symbols, found and the availability's iOS version")
    func reads() throws {
        let report = try parse(
            """
            {"tool": "sdk_check", "version": "0.3", "sdk": "27.1", "symbols": [
              {"symbol": "axisBehavior", "found": true, "declaration": {"availability": "@available(iOS 27.1, *)"}},
              {"symbol": "UIBarButtonItem.axisBehavior", "found": true, "declaration": {"availability": "iOS 27.1+"}},
              {"symbol": "cameraCapture(sceneConfiguration:userInfo:)", "found": true, "declaration": {"availability": "27.1"}},
              {"symbol": "barMinimizationBehavior", "found": false, "declaration": null},
              {"symbol": "macOnly", "found": true, "declaration": {"availability": "macOS 17"}},
              {"symbol": "noDeclaration", "found": true}
            ], "extra": [1, 2]}
            """)
        #expect(report.tool == "sdk_check")
        #expect(report.toolVersion == "0.3")
        #expect(report.sdk == SDKVersion(27, 1))
        #expect(
            report.symbols == [
                SDKCheckSymbol(symbol: "axisBehavior", found: true, availableFrom: SDKVersion(27, 1)),
                SDKCheckSymbol(symbol: "UIBarButtonItem.axisBehavior", found: true, availableFrom: SDKVersion(27, 1)),
                SDKCheckSymbol(
                    symbol: "cameraCapture(sceneConfiguration:userInfo:)", found: true, availableFrom: SDKVersion(27, 1)
                ),
                SDKCheckSymbol(symbol: "barMinimizationBehavior", found: false),
                SDKCheckSymbol(symbol: "macOnly", found: true),
                SDKCheckSymbol(symbol: "noDeclaration", found: true),
            ])
    }

    @Test("tool and SDK are optional")
    func minimal() throws {
        let report = try parse(#"{"symbols": []}"#)
        #expect(report.tool == "sdk-check")
        #expect(report.sdk == nil)
        #expect(report.symbols.isEmpty)
    }

    @Test(
        "garbage is refused with the place and the problem",
        arguments: [
            ("", "not valid JSON"),
            ("[]", "expected an object"),
            ("{}", "symbols: missing"),
            (#"{"symbols": {}}"#, "symbols: expected an array"),
            (#"{"symbols": [1]}"#, "symbols[0]: expected an object"),
            (#"{"symbols": [{"found": true}]}"#, "symbols[0].symbol: missing"),
            (#"{"symbols": [{"symbol": "a b", "found": true}]}"#, "symbols[0].symbol: not a symbol name"),
            (#"{"symbols": [{"symbol": "a", "found": "yes"}]}"#, "symbols[0].found: expected true or false"),
            (#"{"symbols": [{"symbol": "a", "found": 1}]}"#, "symbols[0].found: expected true or false"),
            (#"{"symbols": [{"symbol": "a"}]}"#, "symbols[0].found: missing"),
            (
                #"{"symbols": [{"symbol": "a", "found": true}, {"symbol": "b", "found": null}]}"#,
                "symbols[1].found: missing"
            ),
            (#"{"sdk": "latest", "symbols": []}"#, "sdk: expected a version such as 27.1"),
            (#"{"tool": 3, "symbols": []}"#, "tool: expected a string"),
            (
                #"{"symbols": [{"symbol": "a", "found": true, "declaration": {"availability": 27}}]}"#,
                "symbols[0].declaration.availability: expected a string"
            ),
        ] as [(String, String)]
    )
    func garbage(text: String, message: String) {
        #expect {
            try parse(text)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
