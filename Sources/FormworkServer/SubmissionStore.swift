/// A submission to store: what was accepted, for which form and revision.
public struct NewSubmission: Sendable, Equatable {
    public var formID: String
    /// The document revision (`ServedForm.revision`) the values were checked against.
    public var revision: String
    /// The accepted values, as a values file writes them (JSON text). Secure values are stored: they were submitted.
    public var values: String
    /// A key that makes the insert idempotent: the form token's nonce, or the API's `Idempotency-Key`. A second
    /// insert with the same form and key stores nothing and returns the first.
    public var idempotencyKey: String?
    /// Seconds since 1970.
    public var receivedAt: Double
    /// The files of its file fields, stored in the same transaction.
    public var files: [StoredFile]

    public init(
        formID: String, revision: String, values: String, idempotencyKey: String?, receivedAt: Double, files: [StoredFile] = []
    ) {
        self.formID = formID
        self.revision = revision
        self.values = values
        self.idempotencyKey = idempotencyKey
        self.receivedAt = receivedAt
        self.files = files
    }
}

/// A file sent for a file field, stored beside its submission.
public struct StoredFile: Sendable, Equatable {
    /// The field's id as the values file names it (`cv`, `documents.cv` in an object).
    public var field: String
    /// The file's name as sent, made safe (`FileUpload.safeName`): the field's value.
    public var name: String
    /// The media type sniffed from its content (never the one the client claimed).
    public var type: String
    public var size: Int
    /// SHA-256 of the content, 64 hex digits.
    public var sha256: String
    public var content: [UInt8]

    public init(field: String, name: String, type: String, size: Int, sha256: String, content: [UInt8]) {
        self.field = field
        self.name = name
        self.type = type
        self.size = size
        self.sha256 = sha256
        self.content = content
    }
}

/// A stored submission.
public struct StoredSubmission: Sendable, Equatable {
    /// The store's id for it: 32 hex digits, unguessable (it names the confirmation page).
    public var id: String
    public var formID: String
    public var revision: String
    public var values: String
    public var idempotencyKey: String?
    public var receivedAt: Double
    /// Whether this insert stored it (false: it was stored before, under the same idempotency key).
    public var created: Bool

    public init(
        id: String, formID: String, revision: String, values: String, idempotencyKey: String?, receivedAt: Double, created: Bool
    ) {
        self.id = id
        self.formID = formID
        self.revision = revision
        self.values = values
        self.idempotencyKey = idempotencyKey
        self.receivedAt = receivedAt
        self.created = created
    }
}

/// A draft: partial answers saved to be resumed, under a key derived from the resume link's token (the store never
/// holds the token itself, so reading the database does not give a way in to someone's draft).
public struct Draft: Sendable, Equatable {
    /// `FormTokens.draftKey(token)`: the SHA-256 of the resume token, 32 hex digits.
    public var key: String
    public var formID: String
    /// The document revision the answers were checked against when last saved.
    public var revision: String
    /// The answers as a values file writes them (JSON text), never a secure value.
    public var values: String
    /// Seconds since 1970.
    public var savedAt: Double
    public var expiresAt: Double
    /// Set once the draft was sent as a submission (its answers are then cleared): a draft is submitted once.
    public var submissionID: String?

    public init(
        key: String, formID: String, revision: String, values: String, savedAt: Double, expiresAt: Double, submissionID: String? = nil
    ) {
        self.key = key
        self.formID = formID
        self.revision = revision
        self.values = values
        self.savedAt = savedAt
        self.expiresAt = expiresAt
        self.submissionID = submissionID
    }
}

/// A revision of a form document the server has served: its text, kept so answers stored under it can be read as
/// the current revision asks (`formwork submissions export --as-current`).
public struct FormRevision: Sendable, Equatable {
    public var formID: String
    public var revision: String
    /// The document's text as it was read.
    public var document: String
    /// Seconds since 1970.
    public var firstSeen: Double

    public init(formID: String, revision: String, document: String, firstSeen: Double) {
        self.formID = formID
        self.revision = revision
        self.document = document
        self.firstSeen = firstSeen
    }
}

/// Why a store could not do what it was asked.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where submissions are kept. `insert` returns only once the submission is durable (committed and synced): the
/// server acknowledges a submission after that, never before. Implementations: `SQLiteStore` (embedded, the default)
/// and, for several instances, PostgreSQL.
public protocol SubmissionStore: Sendable {
    /// Stores `submission` durably, or returns the one stored before under the same form and idempotency key.
    func insert(_ submission: NewSubmission) async throws(StoreError) -> StoredSubmission
    /// The file sent for `field` with submission `submissionID` of form `formID`, or nil.
    func file(formID: String, submissionID: String, field: String) async throws(StoreError) -> StoredFile?
    /// The files stored with submission `submissionID` of form `formID`, by field id, without their content.
    func files(formID: String, submissionID: String) async throws(StoreError) -> [StoredFile]
    /// The submission `id` of form `formID`.
    func submission(formID: String, id: String) async throws(StoreError) -> StoredSubmission?
    /// The submissions of `formID` in the order they were stored, `limit` at a time after the one with sequence
    /// number `after` (0 for the first page); each with its sequence number.
    func list(formID: String, after: Int64, limit: Int) async throws(StoreError) -> [(sequence: Int64, submission: StoredSubmission)]
    /// Stores `draft` durably (replacing the one under the same form and key), unless that draft was submitted
    /// already; returns what is stored afterwards (its `submissionID` set when it had been submitted).
    func saveDraft(_ draft: Draft) async throws(StoreError) -> Draft
    /// The draft of `formID` under `key`, expired or not (the caller decides), or nil.
    func draft(formID: String, key: String) async throws(StoreError) -> Draft?
    /// Marks the draft submitted as `submissionID` and clears its answers.
    func finishDraft(formID: String, key: String, submissionID: String) async throws(StoreError)
    /// Deletes the drafts that expired before `time` (seconds since 1970); returns how many.
    func purgeDrafts(expiredBefore time: Double) async throws(StoreError) -> Int
    /// Records that `revision` of a form was served (kept once, with the document's text).
    func recordRevision(_ revision: FormRevision) async throws(StoreError)
    /// The revisions of `formID` the store has seen, oldest first.
    func revisions(formID: String) async throws(StoreError) -> [FormRevision]
    /// Finishes what is in flight and closes the store.
    func close() async
}
