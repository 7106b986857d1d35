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

    @Test("an object moved inside another: its answers follow, two levels deep, in the order they came")
    func deeper() throws {
        let text = """
            formwork: 1
            id: club
            sections:
              - id: who
                object: person
                fields:
                  - { id: name, cell: org.formwork.text-field, renamedFrom: name }
              - id: home
                object: person.address
                fields:
                  - { id: city, cell: org.formwork.text-field, renamedFrom: address.city }
                  - { id: street, cell: org.formwork.text-field }
            """
        let step = try #require(Migration.declarations(text: text))
        #expect(step.objects == ["person", "person.address"])
        #expect(step.ids == ["person.name", "person.address.city", "person.address.street"])
        let stored = JSON.object([("name", .string("Ada")), ("address", .object([("city", .string("Paris"))]))])
        let (values, _, changes) = Migration.migrate(stored, through: [step])
        #expect(
            values
                == .object([
                    ("person", .object([("name", .string("Ada")), ("address", .object([("city", .string("Paris"))]))]))
                ]), "\(values)")
        #expect(changes.contains(.renamed(from: "address.city", to: "person.address.city")))
        // Stored under the current revision already: kept as it is.
        let (again, _, none) = Migration.migrate(values, through: [step])
        #expect(again == values && none.isEmpty)
    }
}
