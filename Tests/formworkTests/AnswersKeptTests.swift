import Foundation
import Testing
import FormworkTestSupport

/// A command never destroys what the user gave it: an output that is one of its inputs is refused before
/// anything runs, and answers whose output cannot be written are kept in a file only the user can read.
@Suite("Answers and inputs are never lost")
struct AnswersKeptTests {
    @Test("render --output onto its own form (the path, or a link to it) is refused with exit 73; the form is unchanged")
    func outputIsInput() throws {
        let form = try Scratch.file(
            "kept/form-\(getpid()).yaml", contents: try String(contentsOfFile: Source.root + "/Examples/Forms/login.yaml", encoding: .utf8))
        let before = try String(contentsOfFile: form, encoding: .utf8)
        let link = "\(Scratch.directory)/kept/link-\(getpid()).yaml"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: form)
        for output in [form, link] {
            let result = try run(Build.formwork, ["render", form, "--format", "html", "--output", output])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(result.stderr.contains("it is also an input of this command"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: form, encoding: .utf8) == before)
    }

    @Test("fill --output /dev/full: the answers go to a recovery file (0600) that the error names, and the exit is 74")
    func recovery() throws {
        let home = "\(Scratch.directory)/kept-home-\(getpid())"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let answers = try Scratch.file("kept/answers-\(getpid()).txt", contents: "me@example.com\nsecret123\ny\n")
        let result = try run(
            Build.formwork, ["fill", Source.root + "/Examples/Forms/login.yaml", "--answers", answers, "--output", "/dev/full"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": home])
        #expect(result.status == 74, "\(result.stderr)")
        let note = try #require(result.stderr.split(separator: "\n").first { $0.contains("the answers were saved to") })
        let path = try #require(note.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init))
        #expect(path.hasPrefix("\(home)/.local/state/formwork/recovered/"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"username\": \"me@example.com\""), "\(saved)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test("fill --output of answers that hold a password creates the file readable by the user only")
    func secureOutputIsPrivate() throws {
        let output = "\(Scratch.directory)/kept/secure-\(getpid()).json"
        try? FileManager.default.removeItem(atPath: output)
        let answers = try Scratch.file("kept/secure-answers-\(getpid()).txt", contents: "me@example.com\nsecret123\ny\n")
        let result = try run(
            Build.formwork, ["fill", Source.root + "/Examples/Forms/login.yaml", "--answers", answers, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }
}
