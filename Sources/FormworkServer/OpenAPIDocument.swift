import FormworkCore

/// The OpenAPI 3.1 description of the JSON API: one submissions path per form, its request body the form's values
/// schema (JSON Schema 2020-12, which OpenAPI 3.1 takes as it is), refusals as RFC 9457 problem details.
enum OpenAPIDocument {
    static func generate(_ forms: [ServedForm]) -> JSON {
        var paths: [(String, JSON)] = []
        var schemas: [(String, JSON)] = [("Problem", problemSchema), ("Stored", storedSchema), ("Draft", draftSchema)]
        for served in forms {
            let name = "Values_" + schemaName(served.id)
            var values = ValuesSchema.generate(served.form)
            if case .object(let members) = values { values = .object(members.filter { $0.0 != "$schema" }) }
            schemas.append((name, values))
            let segment = FormService.pathSegment(served.id)
            paths.append(
                (
                    "/api/forms/\(segment)/submissions",
                    .object([
                        ("get", listOperation(served)),
                        (
                            "post",
                            .object([
                                ("operationId", .string("submit_" + schemaName(served.id))),
                                ("summary", .string("Submit the values of \(served.title)")),
                                (
                                    "parameters",
                                    .array([
                                        .object([
                                            ("name", .string("Idempotency-Key")), ("in", .string("header")), ("required", .bool(false)),
                                            (
                                                "description",
                                                .string("A key of the client's: a retry with the same key stores nothing more.")
                                            ),
                                            (
                                                "schema",
                                                .object([
                                                    ("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(255)),
                                                ])
                                            ),
                                        ])
                                    ])
                                ),
                                (
                                    "requestBody",
                                    .object([
                                        ("required", .bool(true)),
                                        ("content", .object(requestContent(served, values: name))),
                                    ])
                                ),
                                (
                                    "responses",
                                    .object([
                                        (
                                            "201",
                                            response(
                                                "Stored (durably) for the first time", "application/json", ref("Stored"), location: true)
                                        ),
                                        (
                                            "200",
                                            response(
                                                "Stored before under the same Idempotency-Key", "application/json", ref("Stored"),
                                                location: true)
                                        ),
                                        (
                                            "422",
                                            response(
                                                "The values were refused; `errors` says where and why", "application/problem+json",
                                                ref("Problem"))
                                        ),
                                        ("400", response("The body could not be read", "application/problem+json", ref("Problem"))),
                                        ("404", response("No such form", "application/problem+json", ref("Problem"))),
                                        ("413", response("The body is too large", "application/problem+json", ref("Problem"))),
                                        ("415", response("The content type is not accepted", "application/problem+json", ref("Problem"))),
                                        (
                                            "503",
                                            response(
                                                "A cell or the store is unavailable; nothing was stored", "application/problem+json",
                                                ref("Problem"))
                                        ),
                                    ])
                                ),
                            ])
                        ),
                    ])
                ))
            if served.form.fields.contains(where: { $0.rules.upload != nil }) {
                paths.append(("/api/forms/\(segment)/submissions/{submission}/files/{field}", .object([("get", fileOperation(served))])))
            }
            paths.append(
                (
                    "/api/forms/\(segment)/schema",
                    .object([
                        (
                            "get",
                            .object([
                                ("operationId", .string("schema_" + schemaName(served.id))),
                                ("summary", .string("The JSON Schema of the values of \(served.title)")),
                                (
                                    "responses",
                                    .object([
                                        ("200", response("The schema", "application/schema+json", .object([("type", .string("object"))])))
                                    ])
                                ),
                            ])
                        )
                    ])
                ))
            paths += draftPaths(served, segment: segment)
        }
        return .object([
            ("openapi", .string("3.1.0")),
            ("info", .object([("title", .string("Formwork forms")), ("version", .string(FormworkVersion.string))])),
            ("paths", .object(paths)),
            (
                "components",
                .object([
                    ("schemas", .object(schemas)),
                    (
                        "securitySchemes",
                        .object([
                            (
                                "reader",
                                .object([
                                    ("type", .string("http")), ("scheme", .string("bearer")),
                                    ("description", .string("The server's --reader-token-file: reads stored answers")),
                                ])
                            )
                        ])
                    ),
                ])
            ),
        ])
    }

    /// `GET …/submissions`: stored answers, for the holder of the reader token.
    static func listOperation(_ served: ServedForm) -> JSON {
        func query(_ name: String, _ schema: JSON, _ description: String) -> JSON {
            .object([
                ("name", .string(name)), ("in", .string("query")), ("required", .bool(false)), ("description", .string(description)),
                ("schema", schema),
            ])
        }
        let problem = ref("Problem")
        return .object([
            ("operationId", .string("list_" + schemaName(served.id))),
            ("summary", .string("Stored answers to \(served.title), oldest first (as stored, or in the current revision's shape)")),
            ("security", .array([.object([("reader", .array([]))])])),
            (
                "parameters",
                .array([
                    query(
                        "as", .object([("enum", .array([.string("stored"), .string("current")]))]), "current: migrated, with a report each"),
                    query("after", .object([("type", .string("integer")), ("minimum", .integer(0))]), "the `next` of the previous page"),
                    query(
                        "limit", .object([("type", .string("integer")), ("minimum", .integer(1)), ("maximum", .integer(1000))]),
                        "default 100"),
                ])
            ),
            (
                "responses",
                .object([
                    (
                        "200",
                        response(
                            "A page of answers; `next` when there may be more", "application/json", .object([("type", .string("object"))]))
                    ),
                    ("400", response("A query that is not understood", "application/problem+json", problem)),
                    ("401", response("No reader token, or a wrong one", "application/problem+json", problem)),
                    (
                        "404",
                        response("No such form, or answers not served (no reader token configured)", "application/problem+json", problem)
                    ),
                ])
            ),
        ])
    }

    /// The draft operations of one form ("Save and continue later" through the API).
    static func draftPaths(_ served: ServedForm, segment: String) -> [(String, JSON)] {
        let name = schemaName(served.id)
        let problem = ref("Problem")
        func refusal(_ description: String) -> JSON { response(description, "application/problem+json", problem) }
        let token: JSON = .object([
            ("name", .string("token")), ("in", .string("path")), ("required", .bool(true)),
            ("description", .string("The draft's token: 43 base64url characters (32 random bytes).")),
            ("schema", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z0-9_-]{43}$"))])),
        ])
        let answers: JSON = .object([
            ("required", .bool(true)),
            (
                "content",
                .object([
                    (
                        "application/json",
                        .object([
                            (
                                "schema",
                                .object([
                                    ("type", .string("object")),
                                    ("description", .string("Answers so far, keyed as in Values_\(name); none is required yet.")),
                                ])
                            )
                        ])
                    )
                ])
            ),
        ])
        func operation(_ id: String, _ summary: String, parameters: [JSON], body: JSON?, _ responses: [(String, JSON)]) -> JSON {
            var members: [(String, JSON)] = [("operationId", .string(id + "_" + name)), ("summary", .string(summary))]
            if !parameters.isEmpty { members.append(("parameters", .array(parameters))) }
            if let body { members.append(("requestBody", body)) }
            members.append(("responses", .object(responses)))
            return .object(members)
        }
        let draft = ref("Draft")
        return [
            (
                "/api/forms/\(segment)/drafts",
                .object([
                    (
                        "post",
                        operation(
                            "draft", "Save partial answers to \(served.title) as a new draft", parameters: [], body: answers,
                            [
                                (
                                    "201",
                                    response("Saved; `resume` is the page that continues it", "application/json", draft, location: true)
                                ),
                                ("422", refusal("An answer given is wrong (nothing is required yet)")),
                                ("404", refusal("No such form")), ("413", refusal("The body is too large")),
                                ("503", refusal("The store is unavailable; nothing was saved")),
                            ])
                    )
                ])
            ),
            (
                "/api/forms/\(segment)/drafts/{token}",
                .object([
                    (
                        "get",
                        operation(
                            "read_draft", "Read a draft of \(served.title)", parameters: [token], body: nil,
                            [
                                ("200", response("The draft", "application/json", draft)), ("404", refusal("No such draft")),
                                ("410", refusal("The draft expired and was deleted")),
                            ])
                    ),
                    (
                        "put",
                        operation(
                            "save_draft", "Save a draft of \(served.title) under a token (made if new)", parameters: [token], body: answers,
                            [
                                ("200", response("Replaced", "application/json", draft, location: true)),
                                ("201", response("Made", "application/json", draft, location: true)),
                                ("400", refusal("A malformed token")), ("409", refusal("The draft was submitted already")),
                                ("422", refusal("An answer given is wrong")), ("503", refusal("The store is unavailable")),
                            ])
                    ),
                ])
            ),
            (
                "/api/forms/\(segment)/drafts/{token}/submission",
                .object([
                    (
                        "post",
                        operation(
                            "submit_draft", "Send a draft of \(served.title) as a submission (once)", parameters: [token],
                            body: .object([
                                ("required", .bool(false)),
                                (
                                    "content",
                                    .object([
                                        (
                                            "application/json",
                                            .object([
                                                (
                                                    "schema",
                                                    .object([
                                                        ("type", .string("object")),
                                                        ("description", .string("Answers added to the draft's first (a password)")),
                                                    ])
                                                )
                                            ])
                                        )
                                    ])
                                ),
                            ]),
                            [
                                ("201", response("Stored", "application/json", ref("Stored"), location: true)),
                                ("200", response("Sent before: the same submission", "application/json", ref("Stored"), location: true)),
                                ("422", refusal("The answers were refused")), ("404", refusal("No such draft")),
                                ("410", refusal("The draft expired")), ("503", refusal("A cell or the store is unavailable")),
                            ])
                    )
                ])
            ),
        ]
    }

    static let draftSchema: JSON = .object([
        ("type", .string("object")),
        ("required", .array(["token", "form", "revision", "resume", "savedAt", "expiresAt", "values"].map(JSON.string))),
        (
            "properties",
            .object([
                ("token", .object([("type", .string("string"))])), ("form", .object([("type", .string("string"))])),
                ("revision", .object([("type", .string("string"))])),
                ("resume", .object([("type", .string("string")), ("description", .string("The page that continues the draft"))])),
                ("savedAt", .object([("type", .string("string")), ("format", .string("date-time"))])),
                ("expiresAt", .object([("type", .string("string")), ("format", .string("date-time"))])),
                ("values", .object([("type", .string("object"))])),
                ("submission", .object([("type", .string("string")), ("description", .string("Set once the draft was sent"))])),
            ])
        ),
    ])

    static func ref(_ name: String) -> JSON { .object([("$ref", .string("#/components/schemas/\(name)"))]) }

    static func response(_ description: String, _ type: String, _ schema: JSON, location: Bool = false) -> JSON {
        var members: [(String, JSON)] = [
            ("description", .string(description)), ("content", .object([(type, .object([("schema", schema)]))])),
        ]
        if location {
            members.append(
                (
                    "headers",
                    .object([
                        (
                            "Location",
                            .object([("description", .string("The submission's URL")), ("schema", .object([("type", .string("string"))]))])
                        )
                    ])
                ))
        }
        return .object(members)
    }

    /// A component name from a form id (OpenAPI allows `^[a-zA-Z0-9._-]+$`).
    static func schemaName(_ id: String) -> String {
        String(
            id.unicodeScalars.map { c in
                c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "-" || c == "_") ? Character(c) : "_"
            })
    }

    static let problemSchema: JSON = .object([
        ("type", .string("object")),
        ("required", .array([.string("type"), .string("title"), .string("status")])),
        (
            "properties",
            .object([
                ("type", .object([("type", .string("string"))])), ("title", .object([("type", .string("string"))])),
                ("status", .object([("type", .string("integer"))])), ("detail", .object([("type", .string("string"))])),
                ("form", .object([("type", .string("string"))])), ("revision", .object([("type", .string("string"))])),
                (
                    "errors",
                    .object([
                        ("type", .string("array")),
                        (
                            "items",
                            .object([
                                ("type", .string("object")),
                                ("required", .array([.string("pointer"), .string("message"), .string("code")])),
                                (
                                    "properties",
                                    .object([
                                        (
                                            "pointer",
                                            .object([
                                                ("type", .string("string")),
                                                ("description", .string("JSON pointer into the submitted values")),
                                            ])
                                        ),
                                        ("message", .object([("type", .string("string"))])),
                                        (
                                            "code",
                                            .object([
                                                ("type", .string("string")),
                                                (
                                                    "enum",
                                                    .array(
                                                        ["required", "unknown-field", "not-submitted", "type", "invalid"].map(JSON.string))
                                                ),
                                            ])
                                        ),
                                    ])
                                ),
                            ])
                        ),
                    ])
                ),
            ])
        ),
    ])

    static let storedSchema: JSON = .object([
        ("type", .string("object")),
        ("required", .array([.string("id"), .string("form"), .string("revision"), .string("receivedAt")])),
        (
            "properties",
            .object([
                ("id", .object([("type", .string("string"))])), ("form", .object([("type", .string("string"))])),
                ("revision", .object([("type", .string("string"))])),
                ("receivedAt", .object([("type", .string("string")), ("format", .string("date-time"))])),
            ])
        ),
    ])

    /// A submission's body: the values as JSON; for a form with file fields, also `multipart/form-data` with the page's
    /// names, each file field a binary part (files cannot be sent as JSON).
    static func requestContent(_ served: ServedForm, values name: String) -> [(String, JSON)] {
        var content: [(String, JSON)] = [("application/json", .object([("schema", ref(name))]))]
        let files = served.form.fields.filter { $0.rules.upload != nil && $0.item == nil }
        guard !files.isEmpty else { return content }
        let properties = files.map { field -> (String, JSON) in
            (
                field.id,
                .object([
                    ("type", .string("string")), ("contentMediaType", .string("application/octet-stream")),
                    ("description", .string(field.rules.upload!.summary + "; the type is read from the content")),
                ])
            )
        }
        content.append(
            (
                "multipart/form-data",
                .object([
                    (
                        "schema",
                        .object([
                            ("type", .string("object")), ("properties", .object(properties)),
                            ("additionalProperties", .object([("type", .string("string"))])),
                        ])
                    )
                ])
            ))
        return content
    }

    /// `GET …/submissions/{submission}/files/{field}`: a stored file, for the reader.
    static func fileOperation(_ served: ServedForm) -> JSON {
        func parameter(_ name: String, _ description: String) -> JSON {
            .object([
                ("name", .string(name)), ("in", .string("path")), ("required", .bool(true)), ("description", .string(description)),
                ("schema", .object([("type", .string("string"))])),
            ])
        }
        return .object([
            ("operationId", .string("file_" + schemaName(served.id))),
            ("summary", .string("A file sent with a submission of \(served.title)")),
            ("security", .array([.object([("reader", .array([]))])])),
            (
                "parameters",
                .array([
                    parameter("submission", "The submission's id"), parameter("field", "The file field's id (documents.cv in an object)"),
                ])
            ),
            (
                "responses",
                .object([
                    (
                        "200",
                        .object([
                            ("description", .string("The file as it was sent, of the type read from its content, as an attachment")),
                            ("content", .object([("application/octet-stream", .object([]))])),
                        ])
                    ),
                    ("401", response("No reader token, or another", "application/problem+json", ref("Problem"))),
                    ("404", response("No such form, submission or file", "application/problem+json", ref("Problem"))),
                ])
            ),
        ])
    }
}
