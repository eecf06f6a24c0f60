import CourierHTTP
import CourierTerminal
import Foundation

/// How the log spells times and durations, and where an attempt's time went.
enum LogPaneFormat {
    /// What a row answered by the cache says where an attempt's timing bar would be, longest first.
    static let cacheHit = ["fresh from cache, no request", "from cache, no request", "from cache", "cache"]

    /// Error kinds longer than the status column, spelled so they still read whole there (the detail
    /// shows the full kind).
    static let shortKinds: [APIError.Kind: String] = [.connectionLost: "conn. lost", .connectionRefused: "refused",
                                                      .unreachable: "no route", .dnsFailure: "no DNS"]

    /// Seconds with one decimal for countdowns, which tick every tenth of a second: `0.8 s`.
    static func countdown(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.1f s", seconds)
    }

    /// `HH:mm:ss` in `zone`.
    static func clock(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// `HH:mm:ss.SSS` in `zone`, for the detail.
    static func preciseClock(_ date: Date, zone: TimeZone) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded()) % 1000
        return clock(date, zone: zone) + String(format: ".%03d", milliseconds)
    }

    /// One phase of an attempt: its name, where it starts and how long it lasts.
    struct Phase: Equatable {
        var name: String
        var start: Duration
        var length: Duration
    }

    /// The phases DNS, connect, TLS, wait and transfer from curl's cumulative timers. Phases that did
    /// not happen (a reused connection has no DNS or connect) are left out.
    static func phases(_ timing: Timing) -> [Phase] {
        var phases: [Phase] = []
        var mark = Duration.zero
        func add(_ name: String, until end: Duration?) {
            guard let end, end > mark else { return }
            phases.append(Phase(name: name, start: mark, length: end - mark))
            mark = end
        }
        add("DNS", until: timing.dns)
        add("connect", until: timing.connect)
        add("TLS", until: timing.tls)
        if timing.firstByte != nil {
            add("wait", until: timing.firstByte)
            add("transfer", until: timing.total)
        } else {
            // No byte came back (a timeout, a reset): the rest of the time was spent waiting.
            add("wait", until: timing.total)
        }
        return phases
    }

    /// The theme's style for a phase's bar.
    static func style(ofPhase name: String, theme: Theme) -> Style {
        switch name {
        case "DNS": theme.phaseDNS
        case "connect": theme.phaseConnect
        case "TLS": theme.phaseTLS
        case "wait": theme.phaseWait
        default: theme.phaseTransfer
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
