import Crypto
import Foundation
import FormworkCore

/// The files of a posted body matched to the form's file fields (`file:` in the document): each checked against its
/// field's limit and accepted types, the type **sniffed from the content** (what the client claims is ignored), its
/// name made safe, its SHA-256 taken. The field's value is the file's name; the file is stored with the submission.
struct Uploads {
    /// `(field id, file name)`: the values the files give, added to the body's pairs.
    var pairs: [(name: String, value: String)] = []
    var files: [StoredFile] = []
    /// A file refused by its field (too large, of another type), at the field's value pointer.
    var problems: [Diagnostic] = []

    /// Matches `parts` to `form`'s file fields; a file sent for a name that is not a file field, or twice for one
    /// field, is a refusal of the whole body (a page of this form never sends it).
    init(_ parts: [SubmissionBody.FilePart], form: Form) throws(SubmissionBody.Refusal) {
        guard !parts.isEmpty else { return }
        var fields: [String: FormField] = [:]
        for field in form.fields where field.rules.upload != nil && field.item == nil { fields[field.id] = field }
        var seen: Set<String> = []
        for part in parts {
            guard let field = fields[part.name], let upload = field.rules.upload else {
                throw SubmissionBody.Refusal(
                    status: 415, message: "part '\(TerminalSafe.clip(part.name))' is a file, but it names no file field of this form")
            }
            guard seen.insert(part.name).inserted else {
                throw SubmissionBody.Refusal(status: 400, message: "two files were sent for '\(TerminalSafe.clip(part.name))'; send one")
            }
            // A file input left empty posts a part with no file name and no content: no answer.
            if part.filename.isEmpty && part.bytes.isEmpty { continue }
            let name = FileUpload.safeName(part.filename)
            pairs.append((field.id, name))
            let type = FileUpload.sniff(part.bytes)
            let label = field.cell.roles.title.flatMap { if case .string(let t)? = field.model[$0] { t } else { nil } } ?? field.id
            if let problem = upload.problem(size: part.bytes.count, type: type, label: label) {
                problems.append(
                    Diagnostic(kind: .invalid, file: nil, pointer: field.valuePointer, line: nil, message: problem, code: "file"))
                continue
            }
            let digest = SHA256.hash(data: part.bytes)
            files.append(
                StoredFile(
                    field: field.id, name: name, type: type, size: part.bytes.count, sha256: FormTokens.hex(Array(digest)),
                    content: part.bytes))
        }
    }
}

extension Uploads {
    /// A value given for a file field without its file (a JSON body, or a form body's text part) is refused: the
    /// field's answer is a file, and a name alone would be stored as if one had been sent.
    mutating func refuseNamesWithoutFiles(in values: JSON, form: Form) {
        let sent = Set(pairs.map(\.name))
        for field in form.fields where field.rules.upload != nil && field.item == nil && !sent.contains(field.id) {
            guard let value = Self.value(at: field.valuePointer, in: values), value != .null else { continue }
            problems.append(
                Diagnostic(
                    kind: .invalid, file: nil, pointer: field.valuePointer, line: nil,
                    message: "'\(field.id)' takes a file: send the file itself in a multipart/form-data body, not its name", code: "file"))
        }
    }

    /// Keeps the files whose field's value survived into `values`: a file for a field the answers hide or disable is
    /// not submitted, as its value is not (a page posted with JavaScript off still sends the file input).
    mutating func dropFilesWithoutValues(in values: JSON, form: Form) {
        let fields = Dictionary(form.fields.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        files.removeAll { file in
            guard let field = fields[file.field] else { return true }
            return Self.value(at: field.valuePointer, in: values) == nil
        }
    }

    /// The member of `json` at a JSON pointer of object keys (`/address/city`).
    static func value(at pointer: String, in json: JSON) -> JSON? {
        var current = json
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = current, let next = members.last(where: { $0.0 == key })?.1 else { return nil }
            current = next
        }
        return current
    }
}

extension FormService {
    /// `values` without the answers of file fields: a draft keeps no file, so it keeps no file's name either.
    static func withoutFiles(_ values: JSON, of form: Form) -> JSON {
        let files = Set(form.fields.filter { $0.rules.upload != nil && $0.item == nil }.map(\.id))
        guard !files.isEmpty else { return values }
        let objects = form.objectPaths
        func strip(_ value: JSON, _ prefix: String) -> JSON {
            guard case .object(let members) = value else { return value }
            return .object(
                members.filter { !files.contains(prefix + $0.0) }.map {
                    ($0.0, objects.contains(prefix + $0.0) ? strip($0.1, prefix + $0.0 + ".") : $0.1)
                })
        }
        return strip(values, "")
    }

    /// `verdict` with the files' own problems: a refused file refuses the submission (its field is named).
    static func adding(_ uploads: Uploads, to verdict: Verdict) -> Verdict {
        guard !uploads.problems.isEmpty else { return verdict }
        switch verdict {
        case .accepted: return .refused(uploads.problems)
        case .refused(let problems): return .refused(uploads.problems + problems)
        case .unavailable: return verdict
        }
    }

    /// `GET /api/forms/{id}/submissions/{submission}/files/{field}`: a stored file, with the reader token (as the
    /// answers are), sent as an attachment of its sniffed type.
    public func apiFile(formID: String, submissionID: String, field: String, authorization: String?) async -> ServerResponse {
        guard let served = catalog.form(formID) else { return noSuchForm(formID) }
        if let refusal = unauthorizedReader(authorization) { return refusal }
        let file: StoredFile?
        do { file = try await store.file(formID: served.id, submissionID: submissionID, field: field) } catch {
            logger.error("a file could not be read", metadata: ["form": "\(served.id)", "error": "\(error)"])
            return problem(503, "store-unavailable", "Store unavailable", "The store could not be read just now; try again.")
        }
        guard let file else {
            return problem(404, "no-such-file", "No such file", "This submission has no file for '\(TerminalSafe.clip(field))'.")
        }
        // The name in the header is ASCII with anything else replaced, and given in full as RFC 8187's filename*.
        let ascii = String(
            file.name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" })
        let encoded = file.name.utf8.map { b -> String in
            let c = Character(UnicodeScalar(b))
            return b < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) ? String(c) : "%" + FormTokens.hex([b]).uppercased()
        }.joined()
        return ServerResponse(
            status: 200,
            headers: [
                ("Content-Type", file.type), ("Content-Disposition", "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"),
                ("Repr-Digest", "sha-256=:" + FormTokens.base64Standard(Self.bytes(hex: file.sha256)) + ":"), ("Cache-Control", "no-store"),
            ], body: file.content)
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for b in hex.utf8 {
            guard let v = SubmissionBody.hexValue(b) else { return [] }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return out
    }
}
