import FormworkCore
import Foundation

/// What a request body may hold.
public struct SubmissionLimits: Sendable {
    /// Bytes of body (413 beyond).
    public var maxBytes: Int
    /// Name and value pairs (413 beyond): a form of `n` fields posts about `n` of them.
    public var maxFields: Int

    /// Bytes of files a `multipart/form-data` body may carry beyond `maxBytes` (a form's file fields each have a
    /// limit of their own, checked once the body is read).
    public var maxUploadBytes: Int

    public init(maxBytes: Int = 1 << 20, maxFields: Int = 10_000, maxUploadBytes: Int = 16 << 20) {
        self.maxBytes = maxBytes
        self.maxFields = maxFields
        self.maxUploadBytes = maxUploadBytes
    }

    /// The most bytes a body of `contentType` may have: files come only in multipart bodies.
    public func bodyLimit(contentType: String?) -> Int {
        MediaType(contentType ?? "").essence == "multipart/form-data" ? maxBytes + maxUploadBytes : maxBytes
    }
}

/// A request body as a browser or a client sends a form: `application/x-www-form-urlencoded` and
/// `multipart/form-data` (name and value pairs, in order), or `application/json` (a values-file object).
/// Every refusal names what is wrong and is answered with its status; nothing here traps on any input, and each
/// parser reads its input once (no input takes more than linear time).
package enum SubmissionBody {
    package enum Parsed {
        /// Name and value pairs, and the files of a multipart body (a form with file fields).
        case fields([(name: String, value: String)], files: [FilePart])
        case json(JSON)
    }

    /// A part of a multipart body that carries a file: the name it is posted under, the file's name as the client
    /// gave it, and its bytes (what the client says the type is is not kept: the type is sniffed).
    package struct FilePart: Sendable {
        package var name: String
        package var filename: String
        package var bytes: [UInt8]
    }

    /// Why a body was refused, and with which status.
    public struct Refusal: Error, Sendable, Equatable {
        public var status: Int
        public var message: String
    }

    package static func parse(_ bytes: [UInt8], contentType: String?, limits: SubmissionLimits) throws(Refusal) -> Parsed {
        let type = MediaType(contentType ?? "")
        let limit = limits.bodyLimit(contentType: contentType)
        guard bytes.count <= limit else {
            throw Refusal(status: 413, message: "the body is \(bytes.count) bytes; this server takes at most \(limit)")
        }
        switch type.essence {
        case "application/x-www-form-urlencoded": return .fields(try urlEncoded(bytes, limits: limits), files: [])
        case "multipart/form-data":
            guard let boundary = type.parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 70 else {
                throw Refusal(status: 400, message: "multipart/form-data needs a boundary parameter of 1 to 70 characters")
            }
            let (pairs, files) = try multipart(bytes, boundary: Array(boundary.utf8), limits: limits)
            return .fields(pairs, files: files)
        case "application/json":
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Refusal(status: 400, message: "the JSON body is not valid UTF-8")
            }
            switch JSON.parseOrExplain(text) {
            case .success(let json):
                guard case .object = json else { throw Refusal(status: 422, message: "the JSON body must be an object keyed by field id") }
                return .json(json)
            case .failure(let error): throw Refusal(status: 400, message: "the JSON body is not JSON: \(error.description)")
            }
        case "":
            throw Refusal(
                status: 415,
                message: "the request has no Content-Type; send application/x-www-form-urlencoded, multipart/form-data or application/json")
        default:
            throw Refusal(
                status: 415,
                message:
                    "Content-Type '\(TerminalSafe.clip(type.essence))' is not accepted; send application/x-www-form-urlencoded, multipart/form-data or application/json"
            )
        }
    }

    // MARK: application/x-www-form-urlencoded

    static func urlEncoded(_ bytes: [UInt8], limits: SubmissionLimits) throws(Refusal) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        var start = 0
        let count = bytes.count
        while start <= count {
            var end = start
            while end < count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = try percentDecoded(bytes[start..<equals])
                let value = equals < end ? try percentDecoded(bytes[(equals + 1)..<end]) : ""
                pairs.append((name, value))
                if pairs.count > limits.maxFields {
                    throw Refusal(status: 413, message: "the body has more than \(limits.maxFields) fields")
                }
            }
            start = end + 1
        }
        return pairs
    }

    static func percentDecoded(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex,
                    let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
                else { throw Refusal(status: 400, message: "the body has a '%' that is not followed by two hexadecimal digits") }
                out.append(high << 4 | low)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Refusal(status: 400, message: "the body is not UTF-8 text (a form must be sent with accept-charset UTF-8)")
        }
        return text
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: multipart/form-data (RFC 7578)

    static func multipart(
        _ bytes: [UInt8], boundary: [UInt8], limits: SubmissionLimits
    ) throws(Refusal) -> ([(name: String, value: String)], [FilePart]) {
        let malformed = Refusal(status: 400, message: "the multipart/form-data body is malformed (see RFC 7578)")
        // Every delimiter is CRLF "--" boundary; the first may start the body.
        let delimiter = Array("\r\n--".utf8) + boundary
        var body = Array("\r\n".utf8)
        body.append(contentsOf: bytes)
        guard var position = find(delimiter, in: body, from: 0) else { throw malformed }
        var pairs: [(name: String, value: String)] = []
        var files: [FilePart] = []
        var fileBytes = 0, textBytes = 0
        while true {
            position += delimiter.count
            // "--" after a delimiter closes the body.
            if position + 1 < body.count && body[position] == UInt8(ascii: "-") && body[position + 1] == UInt8(ascii: "-") {
                return (pairs, files)
            }
            // Transport padding, then CRLF.
            while position < body.count && (body[position] == 0x20 || body[position] == 0x09) { position += 1 }
            guard position + 1 < body.count, body[position] == 0x0D, body[position + 1] == 0x0A else { throw malformed }
            position += 2
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: position - 2) else { throw malformed }
            let headers = headersEnd > position ? Array(body[position..<headersEnd]) : []
            let contentStart = headersEnd + 4
            guard let next = find(delimiter, in: body, from: contentStart - 2) else { throw malformed }
            guard next >= contentStart - 2 else { throw malformed }
            let content = next > contentStart ? Array(body[contentStart..<next]) : []
            let disposition = try formDataDisposition(headers, malformed: malformed)
            if let filename = disposition.filename {
                files.append(FilePart(name: disposition.name, filename: filename, bytes: content))
                fileBytes += content.count
                guard fileBytes <= limits.maxUploadBytes else {
                    throw Refusal(status: 413, message: "the files sent are larger than \(limits.maxUploadBytes) bytes together")
                }
                if pairs.count + files.count > limits.maxFields {
                    throw Refusal(status: 413, message: "the body has more than \(limits.maxFields) fields")
                }
                position = next
                continue
            }
            textBytes += content.count
            guard textBytes <= limits.maxBytes else {
                throw Refusal(
                    status: 413, message: "the body's fields are larger than \(limits.maxBytes) bytes; this server takes at most that")
            }
            guard let value = String(validating: content, as: UTF8.self) else {
                throw Refusal(status: 400, message: "part '\(TerminalSafe.clip(disposition.name))' is not UTF-8 text")
            }
            pairs.append((disposition.name, value))
            if pairs.count > limits.maxFields { throw Refusal(status: 413, message: "the body has more than \(limits.maxFields) fields") }
            position = next
        }
    }

    /// The `name` (and `filename`) of a part's `Content-Disposition: form-data` header.
    static func formDataDisposition(_ headers: [UInt8], malformed: Refusal) throws(Refusal) -> (name: String, filename: String?) {
        guard let text = String(validating: headers, as: UTF8.self) else { throw malformed }
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw malformed }
            guard line[..<colon].lowercased() == "content-disposition" else { continue }
            let type = MediaType(String(line[line.index(after: colon)...]), backslashEscapes: false)
            guard type.essence == "form-data", let name = type.parameters["name"] else { throw malformed }
            // What a browser escaped in a file's name (WHATWG): a quote and line breaks.
            let filename = type.parameters["filename"].map {
                $0.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                    .replacingOccurrences(of: "%0A", with: "\n")
            }
            return (name, filename)
        }
        throw malformed
    }

    /// The first index of `needle` in `haystack` at or after `from` (the needle is at most 74 bytes: linear time).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = max(0, from)
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// A media type: its lowercase `type/subtype` and its parameters (quoted strings unquoted).
struct MediaType {
    var essence: String
    var parameters: [String: String] = [:]

    /// `backslashEscapes`: a quoted value's `\"` is `"` (RFC 9110); a browser's form-data header writes a
    /// backslash as itself and a quote as `%22` (WHATWG's multipart/form-data encoding), so it is read with false.
    init(_ text: String, backslashEscapes: Bool = true) {
        let parts = Self.splitOutsideQuotes(text, backslashEscapes: backslashEscapes)
        essence = (parts.first ?? "").trimmingSpaces.lowercased()
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let key = part[..<equals].trimmingSpaces.lowercased()
            var value = part[part.index(after: equals)...].trimmingSpaces
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
                if backslashEscapes { value = value.replacingBackslashEscapes }
            }
            if parameters[key] == nil { parameters[key] = value }
        }
    }

    /// `text` split at the semicolons that are not inside a quoted string. Read as bytes, as RFC 9110 reads a
    /// field (its marks are ASCII, so each part ends on a character's boundary); read a character at a time, the
    /// grapheme breaking of every `Content-Type` was a share of each submission (docs/performance.md).
    static func splitOutsideQuotes(_ text: String, backslashEscapes: Bool = true) -> [String] {
        var parts: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var quoted = false
        var escaped = false
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let b = utf8[i]
            if escaped {
                escaped = false
            } else if quoted && backslashEscapes && b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if b == UInt8(ascii: ";") && !quoted {
                parts.append(String(decoding: utf8[start..<i], as: UTF8.self))
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        parts.append(String(decoding: utf8[start..<utf8.endIndex], as: UTF8.self))
        return parts
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end (bytes: both are ASCII), in one pass forward.
    var trimmingSpaces: String {
        let utf8 = self.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        var end = start
        var i = start
        while i != utf8.endIndex {
            let b = utf8[i]
            i = utf8.index(after: i)
            if b != 0x20 && b != 0x09 { end = i }
        }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    var replacingBackslashEscapes: String {
        var out = ""
        var escaped = false
        for c in self {
            if !escaped && c == "\\" {
                escaped = true
                continue
            }
            escaped = false
            out.append(c)
        }
        return out
    }
}

/// Text from a request, made safe to put in a message a terminal or a log may show: control characters replaced
/// (`TerminalText.safe`), at most 80 characters.
enum TerminalSafe {
    static func clip(_ text: String) -> String {
        let clipped = text.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(80))) + "…" : text
        return TerminalText.safe(clipped)
    }
}
