import Foundation
import Testing
import FormworkTestSupport

/// File fields (`file:` on a field) through the real command: the document's refusals, `validate --values` reading
/// each path a values file names (relative to it) and judging the file by its content, and what every format shows.
@Suite("File fields: the document, validate --values with paths, render and schema")
struct FileFieldCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let application = "\(Source.root)/Examples/Forms/application.yaml"

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = "\(Scratch.directory)/files/\(name)"
        try FileManager.default.createDirectory(atPath: "\(Scratch.directory)/files", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test(
        "validate: the example's values (a path beside the values file) are valid; wrong type, too large, missing and a folder are refused at the pointer"
    )
    func values() throws {
        let ok = try run(
            Build.formwork, ["validate", application, "--values", "\(Source.root)/Examples/Values/application.json"],
            environment: environment)
        #expect(ok.status == 0, "\(ok.stderr)")
        _ = try write("notes.pdf", Array("plain words\n".utf8))
        _ = try write("big.pdf", Array("%PDF-1.7\n".utf8) + [UInt8](repeating: 0x20, count: 2_100_000))
        // A PNG renamed .jpg is still an image the photo field takes; a PDF renamed .png is not.
        _ = try write("photo.jpg", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        _ = try write("cv.png", Array("%PDF-1.4\n".utf8))
        func validate(_ json: String) throws -> (status: Int32, stderr: String) {
            let path = try Scratch.file("files/values-\(UInt32.random(in: 0...UInt32.max)).json", contents: json)
            let result = try run(Build.formwork, ["validate", application, "--values", path], environment: environment)
            return (result.status, result.stderr)
        }
        let renamed = try validate(#"{"name": "Ada", "email": "ada@example.com", "cv": "notes.pdf", "photo": "cv.png"}"#)
        #expect(renamed.status == 65)
        #expect(
            renamed.stderr.contains(
                "/cv: cv: the file is plain text (read from its content, not its name); this field takes PDF, at most 2 MB. ('notes.pdf')"),
            "\(renamed.stderr)")
        #expect(renamed.stderr.contains("/photo: photo: the file is PDF (read from its content, not its name)"), "\(renamed.stderr)")
        let accepted = try validate(
            #"{"name": "Ada", "email": "ada@example.com", "cv": "../../Examples/Values/files/cv.pdf", "photo": "photo.jpg"}"#)
        // The path is relative to the values file (in Scratch/files), so ../../Examples does not exist there.
        #expect(accepted.stderr.contains("/cv: cv: cannot read the file '../../Examples/Values/files/cv.pdf'"), "\(accepted.stderr)")
        let absolute = try validate(
            #"{"name": "Ada", "email": "ada@example.com", "cv": "\#(Source.root)/Examples/Values/files/cv.pdf", "photo": "photo.jpg"}"#)
        #expect(absolute.status == 0, "\(absolute.stderr)")
        let big = try validate(#"{"name": "Ada", "email": "ada@example.com", "cv": "big.pdf"}"#)
        #expect(big.stderr.contains("/cv: cv: the file is 2.1 MB; this field takes PDF, at most 2 MB. ('big.pdf')"), "\(big.stderr)")
        let folder = try validate(#"{"name": "Ada", "email": "ada@example.com", "cv": "."}"#)
        #expect(folder.stderr.contains("/cv: cv: '.' is not a regular file"), "\(folder.stderr)")
        let missing = try validate(#"{"name": "Ada", "email": "ada@example.com"}"#)
        #expect(missing.stderr.contains("/cv: required field 'cv' has no value"), "\(missing.stderr)")
    }

    @Test("fill: a path typed is checked as validate checks it and written absolute; an e-mail address keeps its case")
    func fill() throws {
        _ = try write("notes.pdf", Array("plain words\n".utf8))
        _ = try write("cv.pdf", Array("%PDF-1.4\n%%EOF\n".utf8))
        let output = "\(Scratch.directory)/files/filled.json"
        let result = try run(
            Build.formwork, ["fill", application, "-o", output], environment: environment,
            input: "Ada\nada@example.com\nnotes.pdf\ncv.pdf\n\n",
            directory: "\(Scratch.directory)/files")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("CV: the file is plain text (read from its content, not its name)"), "\(result.stderr)"
        )
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            written.contains(#""cv": "\#(Scratch.directory)/files/cv.pdf""#) && written.contains(#""email": "ada@example.com""#),
            "\(written)")
        let valid = try run(Build.formwork, ["validate", application, "--values", output], environment: environment)
        #expect(valid.status == 0, "\(valid.stderr)")
    }

    @Test("the document: accept names types Formwork recognises, maxBytes is bounded, a file field holds a string, not in a repeated group")
    func document() throws {
        func decode(_ name: String, _ field: String, repeated: Bool = false) throws -> (status: Int32, stderr: String) {
            let path = try Scratch.file(
                "files/\(name).yaml",
                contents:
                    "formwork: 1\nid: \(name)\nsections:\n  - id: s\n\(repeated ? "    repeat: true\n" : "")    fields:\n      - \(field)\n"
            )
            let result = try run(Build.formwork, ["validate", path], environment: environment)
            return (result.status, result.stderr)
        }
        let types = try decode("types", "{ id: cv, cell: org.formwork.text-field, file: { accept: [application/pdf, text/html] } }")
        #expect(types.status == 65)
        #expect(
            types.stderr.contains(
                "/sections/0/fields/0/file/accept/1: 'text/html' is not a type Formwork can recognise from a file's content; 'accept' takes application/pdf, image/png"
            ),
            "\(types.stderr)")
        let size = try decode("size", "{ id: cv, cell: org.formwork.text-field, file: { maxBytes: 0 } }")
        #expect(size.stderr.contains("/sections/0/fields/0/file/maxBytes: 'maxBytes' must be a whole number of bytes from 1 to 67108864"))
        let list = try decode("list", "{ id: cv, cell: org.formwork.text-field, file: { accept: application/pdf } }")
        #expect(list.stderr.contains("/sections/0/fields/0/file/accept: 'accept' must be a list of media types"), "\(list.stderr)")
        let unknown = try decode("unknown", "{ id: cv, cell: org.formwork.text-field, file: { acept: [] } }")
        #expect(unknown.stderr.contains("unknown key 'acept' in 'file'; did you mean 'accept'?"), "\(unknown.stderr)")
        let toggle = try decode("toggle", "{ id: cv, cell: org.formwork.toggle, file: true }")
        #expect(
            toggle.stderr.contains("/sections/0/fields/0/file: 'cv' (org.formwork.toggle) does not hold a single line of text"),
            "\(toggle.stderr)")
        let repeated = try decode(
            "repeated-alone", "{ id: cv, cell: org.formwork.text-field, model: { title: CV }, file: true }", repeated: true)
        #expect(repeated.stderr.contains("'cv' is in a repeated group; a file field must be outside repeated groups"), "\(repeated.stderr)")
        let fine = try decode("fine", "{ id: cv, cell: org.formwork.text-field, model: { title: CV }, file: true }")
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test(
        "render: HTML has a file input with accept and the form posts multipart; text and JSON say what the field takes; schema --values describes it"
    )
    func render() throws {
        let html = try run(Build.formwork, ["render", application, "--format", "html"], environment: environment)
        #expect(html.stdout.contains(#"enctype="multipart/form-data""#))
        #expect(html.stdout.contains(#"type="file" accept="image/png,.png,image/jpeg,.jpg,.jpeg">"#), "\(html.stdout)")
        // A form without file fields posts as before.
        let login = try run(
            Build.formwork, ["render", "\(Source.root)/Examples/Forms/login.yaml", "--format", "html"], environment: environment)
        #expect(!login.stdout.contains("enctype") && !login.stdout.contains(#"type="file""#))
        let text = try run(Build.formwork, ["render", application], environment: environment)
        #expect(text.stdout.contains("PDF, at most 2 MB.") && text.stdout.contains("PNG or JPEG, at most 500 KB."), "\(text.stdout)")
        let json = try run(Build.formwork, ["render", application, "--format", "json"], environment: environment)
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sections = try #require(tree["sections"] as? [[String: Any]])
        let cv = try #require((sections[1]["fields"] as? [[String: Any]])?.first)
        let file = try #require(cv["file"] as? [String: Any])
        #expect(file["accept"] as? [String] == ["application/pdf"] && file["maxBytes"] as? Int == 2_000_000)
        let schema = try run(Build.formwork, ["schema", "--values", application], environment: environment)
        #expect(
            schema.stdout.contains(#""x-formwork-file""#) && schema.stdout.contains("a path to it in a values file"), "\(schema.stdout)")
    }

    /// The streaming decoders read a section's plain fields flat and decode the others themselves: they must decode
    /// them in the section's scope, as the reference does, or a check that depends on it (a file field in a repeated
    /// group) is skipped. Both formats, a group with a plain field beside the file field.
    @Test("a file field beside a plain field in a repeated group is refused in YAML and JSON alike (the streaming paths)")
    func repeatedBesideFlat() throws {
        let fields = """
            [{"id": "title", "cell": "org.formwork.text-field", "model": {"title": "Title"}},
             {"id": "scan", "cell": "org.formwork.text-field", "model": {"title": "Scan"}, "file": {"accept": ["application/pdf"]}}]
            """
        let json = try Scratch.file(
            "files/repeated.json",
            contents:
                #"{"formwork": 1, "id": "rep", "sections": [{"id": "docs", "repeat": {"minItems": 1, "maxItems": 3, "itemLabel": "Document"}, "fields": \#(fields)}]}"#
        )
        let yaml = try Scratch.file(
            "files/repeated.yaml",
            contents: """
                formwork: 1
                id: rep
                sections:
                  - id: docs
                    repeat: { minItems: 1, maxItems: 3, itemLabel: Document }
                    fields:
                      - { id: title, cell: org.formwork.text-field, model: { title: Title } }
                      - { id: scan, cell: org.formwork.text-field, model: { title: Scan }, file: { accept: [application/pdf] } }
                """)
        for document in [json, yaml] {
            let result = try run(Build.formwork, ["validate", document], environment: environment)
            #expect(result.status == 65, "\(document)")
            #expect(
                result.stderr.contains(
                    "/sections/0/fields/1/file: 'scan' is in a repeated group; a file field must be outside repeated groups"),
                "\(result.stderr)")
        }
    }
}
