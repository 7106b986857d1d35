import Crypto
import Foundation

/// The one-time token of a form page: a hidden input, signed with the server's secret (so any instance that shares
/// the secret can verify it), bound to the browser's `SameSite=Strict` cookie, and the idempotency key of the
/// submission it comes with — a double-click, or a page submitted again from the history, stores one row.
///
/// Text form: `v1.<form id, base64url>.<issued, seconds>.<nonce, 32 hex>.<signature, base64url>`; the signature is
/// HMAC-SHA256 over everything before it and the cookie's value.
public struct FormTokens: Sendable {
    private let signer: Signer
    /// How long a page may stay open before its token is refused as expired (the answers are kept, a fresh token given).
    public let lifetime: Double

    /// `secret`: at least 32 bytes, shared by every instance that serves the same forms.
    public init(secret: [UInt8], lifetime: Double = 24 * 3600) {
        signer = Signer(secret: secret)
        self.lifetime = lifetime
    }

    /// HMAC-SHA256 with the secret, its keyed state made once: each signature starts from a copy of it (the key's
    /// pads hashed again for every token were half of a signature's time). Read-only once made: a copy's state is its
    /// own (copy-on-write), so threads share it.
    private final class Signer: @unchecked Sendable {
        let keyed: HMAC<SHA256>
        init(secret: [UInt8]) { keyed = HMAC<SHA256>(key: SymmetricKey(data: secret)) }

        func code(_ bytes: [UInt8]) -> [UInt8] {
            var hmac = keyed
            hmac.update(data: bytes)
            return Array(hmac.finalize())
        }
    }

    /// A random secret, for one instance that keeps no token across restarts.
    public static func randomSecret() -> [UInt8] { randomBytes(32) }

    /// A new random cookie value (the browser's half of the binding).
    public static func newCookie() -> String { hex(randomBytes(16)) }

    /// `count` random bytes from the kernel, through the process's pool (`RandomPool`). `UInt8.random` a byte at a
    /// time was a system call each: a sixth of a page's CPU time.
    static func randomBytes(_ count: Int) -> [UInt8] { RandomPool.shared.bytes(count) }

    /// A new token for `formID`, bound to `cookie`.
    public func issue(formID: String, cookie: String, now: Double = Date().timeIntervalSince1970) -> String {
        let nonce = Self.hex(Self.randomBytes(16))
        let body = "v1.\(Self.base64url(Array(formID.utf8))).\(Int64(now)).\(nonce)"
        return body + "." + signature(body, cookie: cookie)
    }

    /// What a submitted token says.
    public enum Verdict: Sendable, Equatable {
        /// Signed by a server with the secret, for this form and this browser: `nonce` is the idempotency key.
        case valid(nonce: String)
        /// Genuine but older than `lifetime`: the page was open too long.
        case expired
        /// Absent, malformed, for another form, for another browser, or not signed with the secret.
        case forged
    }

    public func verify(_ token: String?, formID: String, cookie: String?, now: Double = Date().timeIntervalSince1970) -> Verdict {
        guard let token, let cookie, token.utf8.count < 512 else { return .forged }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "v1", let issued = Int64(parts[2]), parts[3].utf8.count == 32 else { return .forged }
        let body = parts[0..<4].joined(separator: ".")
        guard let given = Self.unbase64url(String(parts[4])), Self.same(given, signer.code(Array((body + "|" + cookie).utf8)))
        else { return .forged }
        guard Self.unbase64url(String(parts[1])).map({ String(decoding: $0, as: UTF8.self) }) == formID else { return .forged }
        if now - Double(issued) > lifetime || Double(issued) > now + 300 { return .expired }
        return .valid(nonce: String(parts[3]))
    }

    private func signature(_ body: String, cookie: String) -> String {
        Self.base64url(signer.code(Array((body + "|" + cookie).utf8)))
    }

    /// Whether two codes are equal, in a time that does not depend on where they differ.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let base64urlDigits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url without padding (RFC 4648 §5).
    static func base64url(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(base64urlDigits[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(base64urlDigits[Int(n >> 18 & 63)])
            out.append(base64urlDigits[Int(n >> 12 & 63)])
            if rest == 2 { out.append(base64urlDigits[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base64url text without padding; nil when it is not.
    static func unbase64url(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var n: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "_"): v = 63
            default: return nil
            }
            n = n << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: n >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero: one text per byte string (a token whose last character differs is not the same).
        return bits >= 6 || n & ((1 << UInt32(bits)) - 1) != 0 ? nil : out
    }
}

extension FormTokens {
    static func base64Standard(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
