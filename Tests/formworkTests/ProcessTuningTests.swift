import Foundation
import Testing

@testable import formwork
import FormworkTestSupport

/// How the command sets itself up for a document (`ProcessTuning.prepare(forDocument:)`): from the document's size, huge
/// pages for a large one, one thread for a small one.
@Suite("form loading: the process set up for the document")
struct ProcessTuningTests {
    @Test("a document's fields are estimated from its size; standard input and what cannot be read are 0")
    func estimatedFields() throws {
        let path = Scratch.directory + "/estimate-\(UUID().uuidString).json"
        try String(repeating: "x", count: 250_000).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ProcessTuning.estimatedFields(path) == 2500)
        #expect(ProcessTuning.estimatedFields("-") == 0)
        #expect(ProcessTuning.estimatedFields(Scratch.directory + "/no-such-document.json") == 0)
        #expect(ProcessTuning.estimatedFields(Scratch.directory) == 0)  // a directory
    }

    @Test(
        "below about 24,000 fields the command works on one thread (its cell host has the other core) and keeps its form; above, on all"
    )
    func oneThread() {
        #expect(ProcessTuning.worksOnOneThread(estimatedFields: 10))
        #expect(ProcessTuning.worksOnOneThread(estimatedFields: 11_700))  // the performance suite's 10,000 fields
        #expect(ProcessTuning.worksOnOneThread(estimatedFields: ProcessTuning.oneThreadBelow - 1))
        #expect(!ProcessTuning.worksOnOneThread(estimatedFields: ProcessTuning.oneThreadBelow))
        #expect(!ProcessTuning.worksOnOneThread(estimatedFields: 117_000))  // its 100,000 fields
        // A large form is handed over to its render (its fields freed as their views are made), a small one kept.
        #expect(!ProcessTuning.handsOverForm(estimatedFields: 11_700) && ProcessTuning.handsOverForm(estimatedFields: 117_000))
    }
}
