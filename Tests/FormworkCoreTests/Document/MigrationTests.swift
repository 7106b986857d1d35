import Testing
@testable import FormworkCore

/// Answers stored before a form grouped its fields into an object, read in the current revision's terms.
@Suite("Migration: fields moved into an object and renamed inside one")
struct MigrationTests {
    static let current = """
        formwork: 1
        id: club
        sections:
          - id: s
            fields:
              - { id: name, cell: org.formwork.text-field }
          - id: home
            object: address
            fields:
              - { id: city, cell: org.formwork.text-field, renamedFrom: city }
              - { id: street, cell: org.formwork.text-field, renamedFrom: address.road }
        """

    @Test("a top-level answer moves into the object, an object's member is renamed, what nothing explains is dropped")
    func moved() throws {
        let step = try #require(Migration.declarations(text: Self.current))
        #expect(step.objects == ["address"])
        #expect(step.ids == ["name", "address.city", "address.street"])
        let stored = JSON.object([
            ("name", .string("Ada")), ("city", .string("Paris")),
            ("address", .object([("road", .string("Rue 1")), ("flat", .string("3"))])),
        ])
        let (values, kept, changes) = Migration.migrate(stored, through: [step])
        #expect(
            values
                == .object([("name", .string("Ada")), ("address", .object([("city", .string("Paris")), ("street", .string("Rue 1"))]))]))
        #expect(kept.isEmpty)
        #expect(changes.contains(.renamed(from: "city", to: "address.city")))
        #expect(changes.contains(.renamed(from: "address.road", to: "address.street")))
        #expect(changes.contains(.dropped(field: "address.flat", declared: false)))
    }
}
