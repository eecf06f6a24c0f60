import CourierTerminal

extension LatencyStats {
    /// Draws ` · ▁▂▅ p50 … · p95 …` after `used` columns of `row` when it fits: with the full sparkline,
    /// else a short one, else not at all.
    func renderTrailing(into buffer: inout Buffer, row: Rect, used: Int, theme: Theme) {
        let free = row.width - used - 3
        for width in [Self.defaultCount, 8] {
            let text = line(sparklineWidth: width)
            guard !text.isEmpty, DisplayWidth.of(text) <= free else { continue }
            buffer.write(" · ", x: row.x + used, y: row.y, style: theme.muted)
            render(into: &buffer, x: row.x + used + 3, y: row.y, maxWidth: free, theme: theme, sparklineWidth: width)
            return
        }
    }
}
