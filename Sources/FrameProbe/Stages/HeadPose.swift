/// Head rotation in degrees, ML Kit's conventions: X (pitch) > 0 looks up; Y (yaw) > 0 turns toward the
/// image's right (the subject's own left); Z (roll) > 0 is counter-clockwise in the image.
public struct HeadPose: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The seed's labels: strict comparisons, nil exactly on ±12 and ±36.
    static func label(_ angle: Double, _ names: [String]) -> String? {
        if angle < -36 { return names[0] }
        if angle > -36 && angle < -12 { return names[1] }
        if angle > -12 && angle < 12 { return names[2] }
        if angle > 12 && angle < 36 { return names[3] }
        if angle > 36 { return names[4] }
        return nil
    }

    /// The labels from the most negative angle to the most positive.
    public static let verticalLabels = ["Super Down", "Down", "Frontal", "Up", "Super Up"]
    public static let horizontalLabels = ["Super Left", "Left", "Frontal", "Right", "Super Right"]
    public static let tiltLabels = ["Super Right", "Right", "Frontal", "Left", "Super Left"]

    /// The seed's label on each axis (nil between two classes).
    public struct Labels: Sendable, Equatable {
        public var vertical: String?
        public var horizontal: String?
        public var tilt: String?

        static let schema = JSONSchema.object([
            .init("vertical", .oneOf(verticalLabels, nullable: true)), .init("horizontal", .oneOf(horizontalLabels, nullable: true)),
            .init("tilt", .oneOf(tiltLabels, nullable: true)),
        ], nullable: true)

        var json: JSONValue {
            func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
            return .object([("vertical", text(vertical)), ("horizontal", text(horizontal)), ("tilt", text(tilt))])
        }

        init(vertical: String?, horizontal: String?, tilt: String?) {
            (self.vertical, self.horizontal, self.tilt) = (vertical, horizontal, tilt)
        }

        init(reading fields: EventFields) {
            self.init(vertical: fields.string("vertical"), horizontal: fields.string("horizontal"), tilt: fields.string("tilt"))
        }
    }

    public var labels: Labels { Labels(vertical: verticalLabel, horizontal: horizontalLabel, tilt: tiltLabel) }

    public var verticalLabel: String? { Self.label(x, Self.verticalLabels) }
    public var horizontalLabel: String? { Self.label(y, Self.horizontalLabels) }
    public var tiltLabel: String? { Self.label(z, Self.tiltLabels) }
}
