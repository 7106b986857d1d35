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

    /// HMAC-SHA256 (RFC 2104) with the secret, its two keyed hash states made once: each signature starts from
    /// copies of them (the key's pads hashed again for every token were much of a signature's time). Built on
    /// `SHA256` itself, not `HMAC<SHA256>`: the generic type's `update(data:)` walks `DataProtocol` regions and its
    /// `finalize` copies through the generic digest, costing about what the hashing does (docs/performance.md, "A
    /// token signed from bytes"). Read-only once made: a copy's state is its own, so threads share it.
    final class Signer: @unchecked Sendable {
        private let inner: SHA256
        private let outer: SHA256

        init(secret: [UInt8]) {
            // A key longer than the hash's block is hashed first; then padded with zeros to the block (64 bytes).
            var key = secret.count > 64 ? Array(SHA256.hash(data: secret)) : secret
            key += Array(repeating: 0, count: 64 - key.count)
            var inner = SHA256()
            var outer = SHA256()
            let ipad = key.map { $0 ^ 0x36 }, opad = key.map { $0 ^ 0x5c }
            ipad.withUnsafeBytes { inner.update(bufferPointer: $0) }
            opad.withUnsafeBytes { outer.update(bufferPointer: $0) }
            self.inner = inner
            self.outer = outer
        }

        /// The code of `message`, handed to `body` as its 32 bytes.
        func withCode<T>(_ message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> T) -> T {
            var hash = inner
            hash.update(bufferPointer: message)
            let innerDigest = hash.finalize()
            var outerHash = outer
            innerDigest.withUnsafeBytes { outerHash.update(bufferPointer: $0) }
            return outerHash.finalize().withUnsafeBytes(body)
        }

        func code(_ bytes: [UInt8]) -> [UInt8] {
            bytes.withUnsafeBytes { withCode($0) { Array($0) } }
        }
    }

    /// A random secret, for one instance that keeps no token across restarts.
    public static func randomSecret() -> [UInt8] { randomBytes(32) }

    /// A new random cookie value (the browser's half of the binding).
    public static func newCookie() -> String { hex(randomBytes(16)) }

    /// `count` random bytes from the kernel, through the process's pool (`RandomPool`). `UInt8.random` a byte at a
    /// time was a system call each, a large share of a page's CPU time (docs/performance.md).
    static func randomBytes(_ count: Int) -> [UInt8] { RandomPool.shared.bytes(count) }

    /// A new token for `formID`, bound to `cookie`. Made as bytes, signed from them and encoded once (every GET makes
    /// one: strings joined, then copied to bytes again for the signature, were much of its cost).
    public func issue(formID: String, cookie: String, now: Double = Date().timeIntervalSince1970) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 + (formID.utf8.count * 4 + 2) / 3 + 21 + 1 + 32 + 1 + cookie.utf8.count)
        bytes.append(contentsOf: "v1.".utf8)
        Self.appendBase64url(formID.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: String(Int64(now)).utf8)
        bytes.append(UInt8(ascii: "."))
        Self.appendHex(Self.randomBytes(16), to: &bytes)
        let bodyCount = bytes.count
        bytes.append(UInt8(ascii: "|"))
        bytes.append(contentsOf: cookie.utf8)
        let token = bytes.withUnsafeBytes { message in
            signer.withCode(message) { code in
                var out = Array(message.prefix(bodyCount))
                out.reserveCapacity(bodyCount + 1 + 43)
                out.append(UInt8(ascii: "."))
                Self.appendBase64url(code, to: &out)
                return out
            }
        }
        return String(decoding: token, as: UTF8.self)
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

    /// Whether two codes are equal, in a time that does not depend on where they differ.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        appendHex(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendHex(_ bytes: [UInt8], to out: inout [UInt8]) {
        for b in bytes {
            out.append(hexDigits[Int(b >> 4)])
            out.append(hexDigits[Int(b & 15)])
        }
    }

    static let hexDigits = Array("0123456789abcdef".utf8)
    static let base64urlDigits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url without padding (RFC 4648 §5).
    static func base64url(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        appendBase64url(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendBase64url<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        var n: UInt32 = 0
        var held = 0
        for b in bytes {
            n = n << 8 | UInt32(b)
            held += 1
            if held == 3 {
                out.append(base64urlDigits[Int(n >> 18 & 63)])
                out.append(base64urlDigits[Int(n >> 12 & 63)])
                out.append(base64urlDigits[Int(n >> 6 & 63)])
                out.append(base64urlDigits[Int(n & 63)])
                n = 0
                held = 0
            }
        }
        if held > 0 {
            n <<= UInt32(8 * (3 - held))
            out.append(base64urlDigits[Int(n >> 18 & 63)])
            out.append(base64urlDigits[Int(n >> 12 & 63)])
            if held == 2 { out.append(base64urlDigits[Int(n >> 6 & 63)]) }
        }
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
