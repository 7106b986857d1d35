import Glibc

/// Dates cross the ABI as seconds since 1970-01-01T00:00:00Z; documents write them as ISO 8601.
package enum DateFormat {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the dates documents can write.
    package static let earliest: Double = -62_135_596_800
    package static let latest: Double = 253_402_300_799

    /// "2026-11-21" for whole UTC days, else "2026-11-21T10:15:00Z" (proleptic Gregorian calendar, as ISO 8601).
    package static func iso8601(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 253_402_300_800 else { return String(seconds) }
        let c = split(seconds)
        let day = padded(c.y, 4) + "-" + padded(c.m, 2) + "-" + padded(c.d, 2)
        if c.h == 0 && c.mi == 0 && c.s == 0 && seconds == seconds.rounded() { return day }
        return day + "T" + padded(c.h, 2) + ":" + padded(c.mi, 2) + ":" + padded(Int(c.s), 2) + "Z"
    }

    private static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Year, month, day, hour, minute and second (with its fraction) of `seconds`, UTC,
    /// clamped to the dates documents can write (no conversion can trap).
    package static func split(_ seconds: Double) -> (y: Int, m: Int, d: Int, h: Int, mi: Int, s: Double) {
        let seconds = seconds.isFinite ? min(max(seconds, earliest), latest) : 0
        let days = Int((seconds / 86_400).rounded(.down))
        let rest = seconds - Double(days) * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        let h = Int(rest / 3600)
        let mi = Int(rest.truncatingRemainder(dividingBy: 3600) / 60)
        return (y, m, d, h, mi, rest.truncatingRemainder(dividingBy: 60))
    }

    /// Seconds since 1970 of a UTC civil time (Howard Hinnant's days_from_civil); `m` is 1…12.
    package static func join(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Double) -> Double {
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days) * 86_400 + Double(h * 3600 + mi * 60) + s
    }

    /// The days of month `m` (1…12) in year `y`.
    package static func daysIn(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]" (UTC when no zone), and a time of day alone,
    /// "HH:MM[:SS]" (what an HTML time input posts), as that time on 1970-01-01 UTC — the seconds a time-only
    /// date picker holds.
    package static func parse(_ text: String) -> Double? {
        let s = Array(text.utf8)
        if (s.count == 5 || s.count == 8) && s[2] == 0x3A {
            func two(_ i: Int) -> Int? {
                guard (0x30...0x39).contains(s[i]), (0x30...0x39).contains(s[i + 1]) else { return nil }
                return Int(s[i] - 0x30) * 10 + Int(s[i + 1] - 0x30)
            }
            guard let h = two(0), let m = two(3), h < 24, m < 60 else { return nil }
            var sec = 0
            if s.count == 8 {
                guard s[5] == 0x3A, let ss = two(6), ss < 60 else { return nil }
                sec = ss
            }
            return Double(h * 3600 + m * 60 + sec)
        }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var n = 0
            for b in s[from..<from + count] {
                guard (0x30...0x39).contains(b) else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        guard s.count >= 10, let y = number(0, 4), s[4] == 0x2D, let mo = number(5, 2), s[7] == 0x2D, let d = number(8, 2),
            (1...12).contains(mo), (1...31).contains(d)
        else { return nil }
        var h = 0, mi = 0, sec = 0, offset = 0
        var i = 10
        if s.count > 10 {
            guard s[10] == 0x54 || s[10] == 0x20, let hh = number(11, 2), s.count > 13, s[13] == 0x3A, let mm = number(14, 2),
                hh < 24, mm < 60
            else { return nil }
            h = hh; mi = mm; i = 16
            if i < s.count, s[i] == 0x3A {
                guard let ss = number(i + 1, 2), ss < 61 else { return nil }
                sec = ss; i += 3
            }
            if i < s.count {
                if s[i] == 0x5A {
                    i += 1
                } else if s[i] == 0x2B || s[i] == 0x2D {
                    // Real offsets run from -12:00 to +14:00; anything past ±14:00 is a typo.
                    guard let oh = number(i + 1, 2), i + 3 < s.count, s[i + 3] == 0x3A, let om = number(i + 4, 2),
                        om < 60, oh * 60 + om <= 14 * 60
                    else { return nil }
                    offset = (oh * 3600 + om * 60) * (s[i] == 0x2B ? 1 : -1)
                    i += 6
                } else {
                    return nil
                }
            }
            guard i == s.count else { return nil }
        }
        guard y >= 1, d <= daysIn(y, mo) else { return nil }
        return join(y, mo, d, h, mi, Double(sec)) - Double(offset)
    }
}
