/// A point in source-frame pixels.
public struct Point2D: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    func distance(to other: Point2D) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

/// An axis-aligned box in source-frame pixels.
public struct Box: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest box holding every point.
    public init(enclosing points: [Point2D]) {
        let xs = points.map(\.x), ys = points.map(\.y)
        let left = xs.min() ?? 0, top = ys.min() ?? 0
        self.init(x: left, y: top, width: (xs.max() ?? 0) - left, height: (ys.max() ?? 0) - top)
    }

    public var right: Double { x + width }
    public var bottom: Double { y + height }
    public var centre: Point2D { Point2D(x: x + width / 2, y: y + height / 2) }
    public var area: Double { max(width, 0) * max(height, 0) }

    /// Intersection over union with another box (0 when they do not overlap).
    public func intersectionOverUnion(_ other: Box) -> Double {
        let overlap = intersectionArea(other)
        return overlap > 0 ? overlap / (area + other.area - overlap) : 0
    }

    /// This box grown by `margin` on every side.
    public func expanded(by margin: Double) -> Box {
        Box(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }

    /// The box halfway between this one and `other`, edge by edge.
    public func mean(with other: Box) -> Box {
        Box(x: (x + other.x) / 2, y: (y + other.y) / 2, width: (width + other.width) / 2, height: (height + other.height) / 2)
    }

    /// How much of the smaller of the two boxes lies inside the other (1: one holds the other).
    public func overlapOfSmaller(_ other: Box) -> Double {
        let smaller = min(area, other.area)
        return smaller > 0 ? intersectionArea(other) / smaller : 0
    }

    private func intersectionArea(_ other: Box) -> Double {
        let overlapWidth = min(right, other.right) - max(x, other.x)
        let overlapHeight = min(bottom, other.bottom) - max(y, other.y)
        return overlapWidth > 0 && overlapHeight > 0 ? overlapWidth * overlapHeight : 0
    }

    /// This box clipped to a `width` × `height` frame, in whole pixels; nil when nothing is left.
    public func clamped(toWidth frameWidth: Int, height frameHeight: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let left = max(0, Int(x.rounded(.down))), top = max(0, Int(y.rounded(.down)))
        let rightEdge = min(frameWidth, Int(right.rounded(.up))), bottomEdge = min(frameHeight, Int(bottom.rounded(.up)))
        guard rightEdge > left, bottomEdge > top else { return nil }
        return (left, top, rightEdge - left, bottomEdge - top)
    }
}
