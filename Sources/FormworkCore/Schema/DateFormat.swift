import Foundation

/// Dates cross the ABI as seconds since 1970-01-01T00:00:00Z; documents write them as ISO 8601.
package enum DateFormat {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the dates documents can write.
    package static let earliest: Double = -62_135_596_800
    package static let latest: Double = 253_402_300_799

    /// "2026-11-21" for whole UTC days, else "2026-11-21T10:15:00Z".
    package static func iso8601(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 253_402_300_800 else { return String(seconds) }
        let date = Date(timeIntervalSince1970: seconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        if c.hour == 0 && c.minute == 0 && c.second == 0 && seconds == seconds.rounded() { return day }
        return day + String(format: "T%02d:%02d:%02dZ", c.hour!, c.minute!, c.second!)
    }

    /// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]" (UTC when no zone).
    package static func parse(_ text: String) -> Double? {
        let s = Array(text.utf8)
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: sec)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == d
        else { return nil }
        return date.timeIntervalSince1970 - Double(offset)
    }
}
