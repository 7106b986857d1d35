import Crypto
import Foundation

/// The one-time token of a form page: a hidden input, signed with the server's secret (so any instance that shares
/// the secret can verify it), bound to the browser's `SameSite=Strict` cookie, and the idempotency key of the
/// submission it comes with — a double-click, or a page submitted again from the history, stores one row.
///
/// Text form: `v1.<form id, base64url>.<issued, seconds>.<nonce, 32 hex>.<signature, base64url>`; the signature is
/// HMAC-SHA256 over everything before it and the cookie's value.
public struct FormTokens: Sendable {
    private let secret: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: secret) }
    /// How long a page may stay open before its token is refused as expired (the answers are kept, a fresh token given).
    public let lifetime: Double

    /// `secret`: at least 32 bytes, shared by every instance that serves the same forms.
    public init(secret: [UInt8], lifetime: Double = 24 * 3600) {
        self.secret = secret
        self.lifetime = lifetime
    }

    /// A random secret, for one instance that keeps no token across restarts.
    public static func randomSecret() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255) } }

    /// A new random cookie value (the browser's half of the binding).
    public static func newCookie() -> String { hex((0..<16).map { _ in UInt8.random(in: 0...255) }) }

    /// A new token for `formID`, bound to `cookie`.
    public func issue(formID: String, cookie: String, now: Double = Date().timeIntervalSince1970) -> String {
        let nonce = Self.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
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
        guard let given = Self.unbase64url(String(parts[4])),
            HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Array((body + "|" + cookie).utf8), using: key)
        else { return .forged }
        guard Self.unbase64url(String(parts[1])).map({ String(decoding: $0, as: UTF8.self) }) == formID else { return .forged }
        if now - Double(issued) > lifetime || Double(issued) > now + 300 { return .expired }
        return .valid(nonce: String(parts[3]))
    }

    private func signature(_ body: String, cookie: String) -> String {
        Self.base64url(Array(HMAC<SHA256>.authenticationCode(for: Array((body + "|" + cookie).utf8), using: key)))
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

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func unbase64url(_ text: String) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.utf8.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map(Array.init)
    }
}

extension FormTokens {
    static func base64Standard(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
