import FrameProbe
import Foundation

/// The inputs of one run, as the commands that analyse see them: expanded from the command line (raw bytes for
/// names that are not UTF-8), each with its position in the whole sorted list and its output folder, cut to this
/// machine's shard.
struct RunInputs {
    var items: [InputItem]
    /// Positions in the full list (before sharding).
    var positions: [Int]
    /// Folder names under `--output-dir` (computed over the full list, so every shard names them alike).
    var folders: [String]
    /// The shard taken (nil: all inputs) and every input's source, all shards together, sorted.
    let shard: Shard?
    let allSources: [String]

    /// SPEC §8: the shard is taken of the expanded list sorted by source, whatever order the inputs were named in.
    init(_ arguments: [String], options: AnalysisOptions) throws(FrameProbeError) {
        // The output folder is never walked as input (a second run would analyse the first one's captures). An
        // input named inside it is analysed, but not with -y: the run could replace it (without -y nothing is).
        let outputFolder = options.savesImages ? [options.outputFolder] : []
        let rules = InputDiscovery.WalkRules(followLinks: options.followLinks, excluded: outputFolder)
        let all = InputDiscovery.expand(arguments, rawBytes: RawArguments.resolver(), rules: rules)
        for case .media(let source, let location) in all where options.overwrite {
            if let path = location.filePath, let real = InputDiscovery.realPath(path), rules.isExcluded(real) {
                throw FrameProbeError("INVALID_OUTPUT", "the input \(source) is inside the output folder \(options.outputFolder), which -y may replace files in")
            }
        }
        let folders = OutputLayout.folders(for: all)
        var kept = Array(all.indices)
        shard = try options.resolvedShard()
        allSources = all.map(\.source).sorted()
        if let shard {
            kept = kept.sorted { (all[$0].source, $0) < (all[$1].source, $1) }.enumerated()
                .filter { shard.contains($0.offset) }.map(\.element).sorted()
        }
        items = kept.map { all[$0] }
        positions = kept
        self.folders = kept.map { folders[$0] }
        foundNothing = all.allSatisfy { if case .skipped = $0 { true } else { false } }
    }

    /// What this run is (its output's `runStarted`, its report's `run`).
    func record(command: String, settings: [String]) -> RunRecord {
        RunRecord(command: command, settings: settings, shard: shard, inputs: items.map(\.source), allInputs: allSources)
    }

    /// The inputs from `start` on (those a resumed run has left to do).
    func dropping(first count: Int) -> RunInputs {
        var rest = self
        rest.items.removeFirst(count)
        rest.positions.removeFirst(count)
        rest.folders.removeFirst(count)
        return rest
    }

    /// True when the command line named nothing to analyse (an empty directory, only non-media files): the run
    /// fails (exit 1) instead of reporting success over nothing.
    let foundNothing: Bool

    /// The error for `foundNothing`.
    static func nothingFound(_ arguments: [String]) -> FrameProbeError {
        FrameProbeError("NO_INPUT", "no media input found in \(arguments.joined(separator: " "))")
    }

    /// Fails with exit 2 when `path` (an output of the run) is one of its inputs (`-o clip.mp4 clip.mp4`) or a side
    /// file it read (`-o c.json --config c.json`), whatever `-y` says.
    func refuseAsOutput(_ path: String) throws(FrameProbeError) {
        if let side = FileContents.sideFileRead(as: path) {
            throw FrameProbeError("INVALID_OUTPUT", "-o \(path) would destroy \(side), which this run reads")
        }
        var output = stat()
        guard stat(path, &output) == 0 else { return }
        for item in items {
            guard case .media(let source, let location) = item, let input = location.filePath else { continue }
            var status = stat()
            let same = (input + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
            } && status.st_dev == output.st_dev && status.st_ino == output.st_ino
            if same { throw FrameProbeError("INVALID_OUTPUT", "the output \(path) is the input \(source): it would be destroyed") }
        }
    }
}

/// The command line's arguments as bytes: a file name that is not UTF-8 reaches `CommandLine.arguments` repaired
/// (U+FFFD), and must still be opened by its real name.
enum RawArguments {
    private static let all: [[UInt8]] = (0..<Int(CommandLine.argc)).map { index in
        guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }

    /// Gives each argument its bytes. Two names that differ only in invalid bytes reach Swift as the same text, so
    /// each lookup takes the next raw argument that repairs to it, in command-line order (inputs keep their order).
    static func resolver() -> (String) -> [UInt8] {
        var used: Set<Int> = []
        return { argument in
            guard argument.unicodeScalars.contains("\u{FFFD}") else { return Array(argument.utf8) }
            guard let index = all.indices.first(where: { !used.contains($0) && String(decoding: all[$0], as: UTF8.self) == argument }) else {
                return Array(argument.utf8)
            }
            used.insert(index)
            return all[index]
        }
    }
}
