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
        // A baseline is a file; a gate starts with one of the report's fields.
        try Data().write(to: folder.appendingPathComponent("main.json"))
        #expect(bashCompletions(file, ["frameprobe", "report", "--baseline", folder.path + "/ma"]) == [folder.path + "/main.json"])
        #expect(bashCompletions(file, ["frameprobe", "report", "--gate", "faceFrame"]) == ["faceFrames", "faceFrameRatio"])
        #expect(bashCompletions(file, ["frameprobe", "report", "--gate", "longestDark"]) == ["longestDarkInterval"])
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

/// `frameprobe manpage`: frameprobe(1) from the same table, checked by groff and rendered by man.
struct ManPageTests {
    @Test func theManPageIsCleanRoffAndSaysEverything() throws {
        let generated = Shell.frameprobe(["manpage"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let file = Fixtures.temporaryDirectory().appendingPathComponent("frameprobe.1")
        try Data(generated.stdout.utf8).write(to: file)
        let checked = Shell.run("groff -man -ww -z \(Shell.quote(file.path))")
        #expect(checked.status == 0 && checked.stderr.isEmpty, "groff: \(checked.stderr)")
        let rendered = Shell.run("MANWIDTH=100 man -l \(Shell.quote(file.path)) | col -b")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let page = rendered.stdout
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "EVENTS", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES"] {
            #expect(page.contains("\n\(section)\n"), "no \(section) section")
        }
        for command in ["analyze", "acquire", "report", "stages", "schema", "completions", "manpage"] {
            #expect(page.contains("frameprobe \(command)"), "no \(command)")
        }
        for flag in ["--capture-type face|frame|qrcode|none", "--min-face-size FRACTION", "--baseline", "--qrcode-retry", "--output PREFIX"] {
            #expect(page.contains(flag), "no \(flag)")
        }
        // The CI example writes report.xml (its -o is a prefix), and the gate grammar is there.
        #expect(page.contains("-o report --gate") && !page.contains("report.xml.xml") && !page.contains("-o report.xml"))
        #expect(page.contains("[total.][delta.]FIELD OP NUMBER"))
        // Every event of the schema has its entry.
        let schema = Shell.frameprobe(["schema"])
        let definitions = try #require((try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any])?["$defs"] as? [String: Any])
        #expect(definitions.count >= 15)
        for event in definitions.keys { #expect(page.contains("\n       \(event)"), "no \(event)") }
    }
}
