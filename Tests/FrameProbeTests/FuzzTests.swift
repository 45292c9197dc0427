import Foundation
import Testing

/// The bounded mutation test: 50 damaged copies of the footage (Scripts/fuzz; the full run uses 500).
struct FuzzTests {
    @Test func fiftyMutantsNeitherCrashNorHang() {
        let result = Shell.run("\(Shell.quote(Fixtures.packageRoot.appendingPathComponent("Scripts/fuzz").path)) --count 50 --seed 7 --timeout 60 --binary \"$FP\"")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("fuzz: 50 passed, 0 failed"), "\(result.stdout)")
    }
}
