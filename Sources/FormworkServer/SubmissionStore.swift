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

    public init(formID: String, revision: String, values: String, idempotencyKey: String?, receivedAt: Double) {
        self.formID = formID
        self.revision = revision
        self.values = values
        self.idempotencyKey = idempotencyKey
        self.receivedAt = receivedAt
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
    /// The submission `id` of form `formID`.
    func submission(formID: String, id: String) async throws(StoreError) -> StoredSubmission?
    /// The submissions of `formID` in the order they were stored, `limit` at a time after the one with sequence
    /// number `after` (0 for the first page); each with its sequence number.
    func list(formID: String, after: Int64, limit: Int) async throws(StoreError) -> [(sequence: Int64, submission: StoredSubmission)]
    /// Finishes what is in flight and closes the store.
    func close() async
}
