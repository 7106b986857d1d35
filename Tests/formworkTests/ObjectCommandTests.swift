import Foundation
import Testing
import FormworkTestSupport

/// Sections whose values nest (`object: billing`), through the real command: the same field ids in two objects and
/// beside a top-level field and a repeated group's, every problem at its nested pointer, and what fill writes.
@Suite("Objects: nested values in validate, render, schema and fill")
struct ObjectCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let shipping = "\(Source.root)/Examples/Forms/shipping.yaml"

    func values(_ name: String, _ json: String) throws -> String { try Scratch.file("objects/\(name).json", contents: json) }

    @Test("validate: the example's values are valid; each planted problem is reported at its nested pointer")
    func planted() throws {
        let ok = try run(
            Build.formwork, ["validate", shipping, "--values", "\(Source.root)/Examples/Values/shipping.json"], environment: environment)
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try values(
            "bad",
            #"{"name": "Ada", "sameAddress": false, "billing": {"street": 4, "postcode": "1015 CJ 12345", "citty": "x"}, "shipping": "Utrecht", "parcels": [{"name": "Books"}]}"#
        )
        let result = try run(Build.formwork, ["validate", shipping, "--values", bad], environment: environment)
        #expect(result.status == 65)
        for expected in [
            "/billing/street: billing.street must be a string",
            "/billing/postcode:",
            "/billing/citty: no field 'citty' in the object 'billing'; did you mean 'city'?",
            "/billing/city: required field 'billing.city' has no value",
            "/shipping: 'shipping' holds the values of an object: an object such as {\"name\": …}, not a string",
            "/shipping/street: required field 'shipping.street' has no value",
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
        // A value for a field of a hidden object is named at its pointer, like any other.
        let hidden = try values(
            "hidden",
            #"{"name": "Ada", "billing": {"street": "a", "postcode": "b", "city": "c"}, "shipping": {"city": "Utrecht"}, "parcels": [{"name": "Books"}]}"#
        )
        let refused = try run(Build.formwork, ["validate", shipping, "--values", hidden], environment: environment)
        #expect(refused.stderr.contains("/shipping/city: a value is given for 'shipping.city', which is hidden"), "\(refused.stderr)")
        // `--json`: the pointer is the nested one.
        let json = try run(Build.formwork, ["validate", shipping, "--values", bad, "--json"], environment: environment)
        #expect(
            json.stdout.contains(#""pointer": "/billing/citty""#) || json.stdout.contains(#""pointer":"/billing/citty""#), "\(json.stdout)")
    }

    @Test("the document: ids unique within an object, an object not named like a top-level id, no object on a repeated group")
    func document() throws {
        func decode(_ name: String, _ sections: String) throws -> (status: Int32, stderr: String) {
            let path = try Scratch.file("objects/\(name).yaml", contents: "formwork: 1\nid: \(name)\nsections:\n\(sections)")
            let result = try run(Build.formwork, ["validate", path], environment: environment)
            return (result.status, result.stderr)
        }
        let twice = try decode(
            "twice",
            """
              - id: a
                object: home
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
              - id: b
                object: home
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City again } }
            """)
        #expect(twice.status == 65)
        #expect(
            twice.stderr.contains(
                "/sections/1/fields/0/id: duplicate field id 'city' (first used at /sections/0/fields/0); field ids must be unique within the object 'home'"
            ), "\(twice.stderr)")
        let clash = try decode(
            "clash",
            """
              - id: a
                fields:
                  - { id: home, cell: org.formwork.text-field, model: { title: Home } }
              - id: b
                object: home
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
            """)
        #expect(
            clash.stderr.contains("/sections/1/object: object 'home' has the name of the field at /sections/0/fields/0"), "\(clash.stderr)")
        let repeated = try decode(
            "repeated",
            """
              - id: a
                object: home
                repeat: true
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
            """)
        #expect(
            repeated.stderr.contains("/sections/0/object: a repeated section's values are a list of objects already"), "\(repeated.stderr)")
        let badKey = try decode(
            "badkey",
            """
              - id: a
                object: "home address"
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
            """)
        #expect(badKey.stderr.contains("/sections/0/object: object id 'home address' must start with a letter"), "\(badKey.stderr)")
        // A condition names a field of an object as object.id; a bare id of an object's field is unknown.
        let bare = try decode(
            "bare",
            """
              - id: a
                object: home
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
                  - { id: street, cell: org.formwork.text-field, model: { title: Street }, enabledIf: "city is not empty" }
            """)
        #expect(bare.stderr.contains("unknown field 'city'"), "\(bare.stderr)")
        // A cross-field rule inside an object names its fields as object.id, and is reported at the nested pointer.
        let equalsPath = try Scratch.file(
            "objects/equals.yaml",
            contents: """
                formwork: 1
                id: equals
                sections:
                  - id: a
                    object: acct
                    fields:
                      - { id: email, cell: org.formwork.text-field, model: { title: E-mail } }
                      - { id: confirm, cell: org.formwork.text-field, model: { title: Again }, rules: { equals: acct.email } }
                """)
        let mismatch = try values("equals", #"{"acct": {"email": "a@example.com", "confirm": "b@example.com"}}"#)
        let equals = try run(Build.formwork, ["validate", equalsPath, "--values", mismatch], environment: environment)
        #expect(equals.status == 65)
        #expect(equals.stderr.contains("/acct/confirm: Again must match E-mail."), "\(equals.stderr)")
        // The same ids in two objects, beside a top-level field and a repeated group's: the example is valid.
        #expect(try run(Build.formwork, ["validate", shipping], environment: environment).status == 0)
    }

    @Test("render: the JSON tree carries the object and the scoped ids; the HTML posts object.id; fill writes nested values")
    func renderAndFill() throws {
        let valuesFile = "\(Source.root)/Examples/Values/shipping.json"
        let json = try run(Build.formwork, ["render", shipping, "--values", valuesFile, "--format", "json"], environment: environment)
            .stdout
        #expect(json.contains(#""object": "shipping""#) && json.contains(#""id": "shipping.name""#), "\(json.prefix(600))")
        let html = try run(Build.formwork, ["render", shipping, "--format", "html"], environment: environment).stdout
        #expect(html.contains(#"name="billing.city""#) && html.contains(#"data-enabled-if"#), "\(html.prefix(400))")
        let answers = try Scratch.file(
            "objects/answers.txt",
            contents: "Ada\nn\nKeizersgracht 1\n1015 CJ\nAmsterdam\nAda (office)\nStationsplein 2\n3511 ED\nUtrecht\n\nBooks\n\nn\n")
        let output = "\(Scratch.directory)/objects/filled.json"
        let filled = try run(Build.formwork, ["fill", shipping, "--answers", answers, "-o", output], environment: environment)
        #expect(filled.status == 0, "\(filled.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        #expect(object?["name"] as? String == "Ada")
        #expect((object?["billing"] as? [String: Any])?["city"] as? String == "Amsterdam")
        #expect((object?["shipping"] as? [String: Any])?["name"] as? String == "Ada (office)")
        #expect(object?["shipping.name"] == nil)
        #expect(try run(Build.formwork, ["validate", shipping, "--values", output], environment: environment).status == 0)
    }

    @Test("schema --values: an object's fields are an object's properties, its required fields required in it")
    func schema() throws {
        let result = try run(Build.formwork, ["schema", "--values", shipping], environment: environment)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        let billing = try #require(properties["billing"] as? [String: Any])
        #expect(billing["type"] as? String == "object" && billing["additionalProperties"] as? Bool == false)
        #expect(Set((billing["required"] as? [String]) ?? []) == ["street", "postcode", "city"])
        #expect(((billing["properties"] as? [String: Any])?.keys).map(Set.init) == ["street", "postcode", "city"])
        #expect((schema["required"] as? [String])?.contains("billing") == true)
        // The shipping address is shown only when asked for: its fields are not required by the schema.
        let shippingObject = try #require(properties["shipping"] as? [String: Any])
        #expect(shippingObject["required"] == nil)
        #expect(properties["billing.city"] == nil)
    }

    @Test("objects inside objects: object: person.address nests two levels in validate, render, fill and schema; clashes refused")
    func deeper() throws {
        let document = try Scratch.file(
            "objects/deep.yaml",
            contents: """
                formwork: 1
                id: deep
                sections:
                  - id: who
                    object: person
                    fields:
                      - { id: name, cell: org.formwork.text-field, required: true, model: { title: Name } }
                  - id: home
                    object: person.address
                    fields:
                      - { id: city, cell: org.formwork.text-field, required: true, model: { title: City } }
                      - { id: zip, cell: org.formwork.text-field, model: { title: Postcode }, enabledIf: "person.address.city is not empty" }
                  - id: geo
                    object: person.address.geo
                    fields:
                      - { id: lat, cell: org.formwork.text-field, model: { title: Latitude } }
                  - id: other
                    fields:
                      - { id: city, cell: org.formwork.text-field, model: { title: Other city } }
                """)
        let ok = try values(
            "deep-ok", #"{"person": {"name": "Ada", "address": {"city": "Paris", "zip": "75001", "geo": {"lat": "48.8"}}}, "city": "x"}"#)
        let valid = try run(Build.formwork, ["validate", document, "--values", ok], environment: environment)
        #expect(valid.status == 0, "\(valid.stderr)")
        let bad = try values(
            "deep-bad", #"{"person": {"name": "Ada", "address": {"citty": "Paris", "geo": "x"}}, "person.address.city": "y"}"#)
        let refused = try run(Build.formwork, ["validate", document, "--values", bad], environment: environment)
        for expected in [
            "/person/address/citty: no field 'citty' in the object 'person.address'; did you mean 'city'?",
            "/person/address/geo: 'person.address.geo' holds the values of an object: an object such as {\"lat\": …}, not a string",
            "/person.address.city: 'person.address.city' is a field of the object 'person.address': write it inside it, {\"person\": {\"address\": {\"city\": …}}}",
            "/person/address/city: required field 'person.address.city' has no value",
        ] {
            #expect(refused.stderr.contains(expected), "\(expected)\n\(refused.stderr)")
        }
        let html = try run(Build.formwork, ["render", document, "--format", "html"], environment: environment)
        #expect(html.stdout.contains(#"name="person.address.geo.lat""#) && html.stdout.contains(#"name="person.address.city""#))
        let output = "\(Scratch.directory)/objects/deep-filled.json"
        let filled = try run(
            Build.formwork, ["fill", document, "-o", output], environment: environment, input: "Ada\nParis\n75001\n48.8\nOther\n")
        #expect(filled.status == 0, "\(filled.stderr)")
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let person = try #require(written["person"] as? [String: Any])
        let address = try #require(person["address"] as? [String: Any])
        #expect(person["name"] as? String == "Ada" && address["city"] as? String == "Paris" && written["city"] as? String == "Other")
        #expect((address["geo"] as? [String: Any])?["lat"] as? String == "48.8")
        let schema = try run(Build.formwork, ["schema", "--values", document], environment: environment)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any])
        let personSchema = try #require((root["properties"] as? [String: Any])?["person"] as? [String: Any])
        let addressSchema = try #require((personSchema["properties"] as? [String: Any])?["address"] as? [String: Any])
        #expect(addressSchema["required"] as? [String] == ["city"] && personSchema["required"] as? [String] == ["name", "address"])
        #expect((addressSchema["properties"] as? [String: Any])?["geo"] != nil)

        // A field of an object named like an object inside it, and a top-level field named like an outer object.
        func decode(_ name: String, _ sections: String) throws -> String {
            let path = try Scratch.file("objects/\(name).yaml", contents: "formwork: 1\nid: \(name)\nsections:\n\(sections)")
            return try run(Build.formwork, ["validate", path], environment: environment).stderr
        }
        let clash = try decode(
            "deep-clash",
            """
              - id: a
                object: person
                fields:
                  - { id: address, cell: org.formwork.text-field, model: { title: Address } }
              - id: b
                object: person.address
                fields:
                  - { id: city, cell: org.formwork.text-field, model: { title: City } }
              - id: c
                object: top.inner
                fields:
                  - { id: x, cell: org.formwork.text-field, model: { title: X } }
              - id: d
                fields:
                  - { id: top, cell: org.formwork.text-field, model: { title: Top } }
            """)
        #expect(clash.contains("/sections/1/object: object 'person.address' has the name of the field at /sections/0/fields/0"), "\(clash)")
        #expect(clash.contains("/sections/2/object: object 'top' has the name of the field at /sections/3/fields/0"), "\(clash)")
        let bad_path = try decode(
            "deep-path",
            """
              - id: a
                object: person..address
                fields: []
            """)
        #expect(
            bad_path.contains("/sections/0/object: object 'person..address' must be a key (address), or keys joined by dots"), "\(bad_path)"
        )
    }
}
