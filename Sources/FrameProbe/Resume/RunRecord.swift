import Foundation

/// What a run is, written first in its output (`runStarted`) and kept in its JSON report (`run`): the command, the
/// settings that shape the results, the shard it took and the inputs. `--resume` continues an output only when
/// the run it was started by is this one; `report --merge` checks its parts were one run's shards.
public struct RunRecord: Sendable, Equatable {
    public var command: String
    /// The settings that shape the results, one `--flag=value` each (from the command line or `--config`, the last
    /// of a repeated one), sorted. Where outputs go and how fast it runs are not in it.
    public var settings: [String]
    public var shard: Shard?
    /// The inputs this run (this shard) takes, in order.
    public var inputs: [String]
    /// How many inputs the whole run has, every shard together, and a digest of their names.
    public var allInputCount: Int
    public var allInputsDigest: String

    public init(command: String, settings: [String], shard: Shard?, inputs: [String], allInputs: [String]) {
        self.init(command: command, settings: settings, shard: shard, inputs: inputs, allInputCount: allInputs.count,
                  allInputsDigest: Digest.of(allInputs))
    }

    init(command: String, settings: [String], shard: Shard?, inputs: [String], allInputCount: Int, allInputsDigest: String) {
        self.command = command
        self.settings = settings
        self.shard = shard
        self.inputs = inputs
        self.allInputCount = allInputCount
        self.allInputsDigest = allInputsDigest
    }

    /// The settings' digest: two runs with the same one analyse alike.
    public var settingsDigest: String { Digest.of([command] + settings) }

    /// The config keys of settings that decide where outputs go, how fast the run goes or which share it takes,
    /// not what it finds: they are left out of `settings`, so a shard, a rerun with more jobs or `--resume` is the
    /// same run.
    public static let placementKeys: Set<String> = [
        "output", "overwrite", "jobs", "progress", "shard", "shardCount", "resume", "merge", "formats", "gates", "baseline",
        "baselineNewInputs",
    ]

    /// `settings` from what `--config` and the command line set, in the order applied (values as written).
    public static func settings(_ given: [(spec: OptionSpec, value: String)]) -> [String] {
        var last: [String: String] = [:]
        for entry in given where !placementKeys.contains(entry.spec.configKey) { last[entry.spec.flag] = entry.value }
        return last.map { "--\($0.key)=\($0.value)" }.sorted()
    }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("command", .string(command)), ("version", .string(Versions.frameprobe)),
            ("settings", .array(settings.map { .string($0) })), ("settingsDigest", .string(settingsDigest)),
        ]
        if let shard { fields.append(("shard", .object([("index", .int(shard.index)), ("count", .int(shard.count))]))) }
        fields += [
            ("inputs", .array(inputs.map { .string($0) })),
            ("allInputCount", .int(allInputCount)), ("allInputsDigest", .string(allInputsDigest)),
        ]
        return .object(fields)
    }

    /// Reads a record written by `json` (a `runStarted` line or a report's `run`); nil when it is not one.
    public init?(json object: Any?) {
        guard let object = object as? [String: Any], let command = object["command"] as? String,
              let settings = object["settings"] as? [String], let inputs = object["inputs"] as? [String],
              let count = (object["allInputCount"] as? NSNumber)?.intValue, let digest = object["allInputsDigest"] as? String else { return nil }
        var shard: Shard?
        if let part = object["shard"] {
            guard let part = part as? [String: Any], let index = (part["index"] as? NSNumber)?.intValue,
                  let total = (part["count"] as? NSNumber)?.intValue, let parsed = try? Shard(index: index, count: total) else { return nil }
            shard = parsed
        }
        self.init(command: command, settings: settings, shard: shard, inputs: inputs, allInputCount: count, allInputsDigest: digest)
    }

    /// The shard as people write it: `1/3`, or `1/1` for a run that was not sharded.
    public var shardName: String { shard.map { "\($0.index)/\($0.count)" } ?? "0/1" }
}

extension RunRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case command, settings, shard, inputs, allInputCount, allInputsDigest
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(command: try container.decode(String.self, forKey: .command), settings: try container.decode([String].self, forKey: .settings),
                  shard: try container.decodeIfPresent(Shard.self, forKey: .shard), inputs: try container.decode([String].self, forKey: .inputs),
                  allInputCount: try container.decode(Int.self, forKey: .allInputCount),
                  allInputsDigest: try container.decode(String.self, forKey: .allInputsDigest))
    }

    /// The same fields as `runStarted` carries (`json`).
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension Shard: Codable {
    private enum CodingKeys: String, CodingKey { case index, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index), count = try container.decode(Int.self, forKey: .count)
        do { try self.init(index: index, count: count) } catch {
            throw DecodingError.dataCorruptedError(forKey: .index, in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(count, forKey: .count)
    }
}

/// `runStarted`: the first line of a run's JSON Lines (source ""): what the run is (`RunRecord`).
public struct RunStarted: EventPayload {
    public static let eventName = "runStarted"
    public let record: RunRecord

    public init(_ record: RunRecord) { self.record = record }

    public static let schema = EventSchema(.input, [
        .init("command", .string(minLength: 1)), .init("version", .string(minLength: 1)),
        .init("settings", .array(of: .string())), .init("settingsDigest", .string(minLength: 16)),
        .init("shard", .object([.init("index", .integer(minimum: 0)), .init("count", .integer(minimum: 1))]), required: false),
        .init("inputs", .array(of: .string())),
        .init("allInputCount", .integer(minimum: 0)), .init("allInputsDigest", .string(minLength: 16)),
    ])

    public var fields: [(String, JSONValue)] {
        guard case .object(let fields) = record.json else { return [] }
        return fields
    }
}

extension RunRecord {
    /// How `other` is not the same run as this one, in words (the first difference found); nil when it is.
    public func difference(from other: RunRecord) -> String? {
        if command != other.command { return "frameprobe \(command), not \(other.command)" }
        if settings != other.settings {
            let mine = Set(settings), theirs = Set(other.settings)
            let only = (mine.subtracting(theirs).sorted().map { "\($0) there" } + theirs.subtracting(mine).sorted().map { "\($0) here" })
            return "settings differ: " + only.joined(separator: ", ")
        }
        if shard != other.shard { return "shard \(shardName), not \(other.shardName)" }
        if allInputsDigest != other.allInputsDigest || allInputCount != other.allInputCount || inputs != other.inputs {
            let first = zip(inputs, other.inputs).first { $0 != $1 }.map { ": \($0.0) there, \($0.1) here" } ?? ""
            return "inputs differ (\(allInputCount) there, \(other.allInputCount) here\(first))"
        }
        return nil
    }
}
