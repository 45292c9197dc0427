import Foundation
import Testing

/// `frameprobe completions bash|zsh|fish`: scripts generated from the option table, run in the real shells.
struct CompletionTests {
    func script(_ shell: String) throws -> URL {
        let result = Shell.frameprobe(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        let file = Fixtures.temporaryDirectory().appendingPathComponent("frameprobe.\(shell)")
        try Data(result.stdout.utf8).write(to: file)
        return file
    }

    /// What bash's completion function offers for `words` (the cursor on the last word).
    func bashCompletions(_ file: URL, _ words: [String]) -> [String] {
        let array = words.map(Shell.quote).joined(separator: " ")
        let result = Shell.run("bash -c \(Shell.quote("source \(Shell.quote(file.path)); COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _frameprobe; printf '%s\\n' \"${COMPREPLY[@]}\""))")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsFlagsChoicesAndFiles() throws {
        let file = try script("bash")
        #expect(bashCompletions(file, ["frameprobe", "ac"]) == ["acquire"])
        #expect(bashCompletions(file, ["frameprobe", "analyze", "--capture-t"]) == ["--capture-type"])
        #expect(bashCompletions(file, ["frameprobe", "analyze", "--capture-type", ""]) == ["face", "frame", "qrcode", "none"])
        #expect(bashCompletions(file, ["frameprobe", "report", "--format", "j"]) == ["json", "junit"])
        #expect(bashCompletions(file, ["frameprobe", "analyze", "--min-face-size", ""]).isEmpty)  // a number: nothing to offer
        // An input completes to files.
        let folder = Fixtures.temporaryDirectory()
        try Data().write(to: folder.appendingPathComponent("clip-one.mp4"))
        #expect(bashCompletions(file, ["frameprobe", "analyze", folder.path + "/clip-"]) == [folder.path + "/clip-one.mp4"])
    }

    @Test func fishCompletesChoicesAndZshParses() throws {
        let fish = try script("fish")
        let offered = Shell.run("fish -c \(Shell.quote("source \(Shell.quote(fish.path)); complete --do-complete 'frameprobe analyze --capture-type '"))")
        #expect(offered.status == 0, "\(offered.stderr)")
        #expect(Set(offered.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }) == ["face", "frame", "qrcode", "none"])
        let zsh = try script("zsh")
        let parsed = Shell.run("zsh -n \(Shell.quote(zsh.path))")
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let text = try String(contentsOf: zsh, encoding: .utf8)
        #expect(text.hasPrefix("#compdef frameprobe") && text.contains("'--capture-type[what to capture]:value:(face frame qrcode none)'"))
    }

    @Test func anUnknownShellIsAUsageError() {
        let result = Shell.frameprobe(["completions", "tcsh"])
        #expect(result.status == 2 && result.stderr.contains("bash, zsh or fish"))
    }
}
