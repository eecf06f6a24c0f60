/// How a `Layout` sizes one of its parts.
public enum Constraint: Sendable, Hashable {
    /// Exactly this many cells (less if the space runs out).
    case length(Int)
    /// At least this many cells; grows when there is space and no `fill` takes it.
    case min(Int)
    /// At most this many cells; takes what it can up to the limit.
    case max(Int)
    /// This share of the whole, 0–100.
    case percentage(Int)
    /// A share of what is left after the others, by weight.
    case fill(Int)
}

/// Which way a `Layout` splits a rectangle.
public enum Direction: Sendable, Hashable {
    /// Parts stacked top to bottom.
    case vertical
    /// Parts side by side, left to right.
    case horizontal
}

/// Splits a rectangle into parts along one direction, by constraints. Pure arithmetic: the parts
/// always tile the rectangle (with `spacing` between them) and never overflow it.
public struct Layout: Sendable, Hashable {
    public var direction: Direction
    public var constraints: [Constraint]
    /// Cells left empty between neighbouring parts.
    public var spacing: Int

    public init(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) {
        self.direction = direction
        self.constraints = constraints
        self.spacing = spacing
    }

    /// The parts of `rect`, one per constraint, in order.
    public func split(_ rect: Rect) -> [Rect] {
        let extent = direction == .vertical ? rect.height : rect.width
        let sizes = Layout.sizes(constraints, extent: extent, spacing: spacing)
        var offset = 0
        return sizes.map { size in
            defer { offset += size + spacing }
            switch direction {
            case .vertical: return Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: size)
            case .horizontal: return Rect(x: rect.x + offset, y: rect.y, width: size, height: rect.height)
            }
        }
    }

    /// The sizes for `constraints` in `extent` cells. Fixed parts first (length, percentage, the floor
    /// of min), then the rest goes to fills by weight, or else to max parts up to their limits, or
    /// else to min parts evenly. When space runs short the last parts shrink first.
    public static func sizes(_ constraints: [Constraint], extent: Int, spacing: Int = 0) -> [Int] {
        guard !constraints.isEmpty else { return [] }
        let total = Swift.max(0, extent - spacing * (constraints.count - 1))
        var sizes = constraints.map { constraint -> Int in
            switch constraint {
            case .length(let n), .min(let n): Swift.max(0, n)
            case .percentage(let p): total * Swift.min(100, Swift.max(0, p)) / 100
            case .max, .fill: 0
            }
        }
        var remaining = total - sizes.reduce(0, +)
        if remaining < 0 {
            // Shrink from the end so the first parts (usually headers) keep their size.
            for index in sizes.indices.reversed() where remaining < 0 {
                let cut = Swift.min(sizes[index], -remaining)
                sizes[index] -= cut
                remaining += cut
            }
            return sizes
        }
        let fills = constraints.indices.compactMap { i -> (Int, Int)? in
            if case .fill(let w) = constraints[i] { return (i, Swift.max(1, w)) } else { return nil }
        }
        if !fills.isEmpty {
            // Shares by weight, reserving room for max parts would make fills depend on order;
            // max parts get nothing when a fill is present.
            let weight = fills.reduce(0) { $0 + $1.1 }
            var given = 0
            for (n, (index, w)) in fills.enumerated() {
                let share = n == fills.count - 1 ? remaining - given : remaining * w / weight
                sizes[index] = share
                given += share
            }
            return sizes
        }
        for index in constraints.indices {
            if case .max(let limit) = constraints[index] {
                let take = Swift.min(Swift.max(0, limit), remaining)
                sizes[index] = take
                remaining -= take
            }
        }
        let mins = constraints.indices.filter { if case .min = constraints[$0] { true } else { false } }
        if !mins.isEmpty, remaining > 0 {
            for (n, index) in mins.enumerated() {
                sizes[index] += remaining / mins.count + (n < remaining % mins.count ? 1 : 0)
            }
        }
        return sizes
    }
}

extension Rect {
    /// The parts of this rectangle under `constraints` in `direction`.
    public func split(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        Layout(direction, constraints, spacing: spacing).split(self)
    }

    /// A rectangle of `size` centred in this one (clipped to it).
    public func centered(_ size: Size) -> Rect {
        let w = Swift.min(size.width, width), h = Swift.min(size.height, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
