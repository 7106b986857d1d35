import Testing

@testable import FormworkCore

@Suite("Parsing: YAML plain scalars resolved")
struct YAMLReaderTests {
    /// The kind a plain scalar resolves to, read as a document's only value.
    func kind(_ scalar: String) throws -> String {
        let node = try YAMLReader.parse("v: \(scalar)\n")
        switch node["v"]?.kind {
        case .null?: return "null"
        case .bool(let b)?: return "bool \(b)"
        case .integer(let n)?: return "integer \(n)"
        case .number(let d)?: return "number \(d)"
        case .string(let s)?: return "string \(s)"
        default: return "other"
        }
    }

    @Test("every null and boolean word, and the words next to them, resolve as YAML 1.1 reads them")
    func words() throws {
        for word in ["~", "null", "Null", "NULL"] { #expect(try kind(word) == "null", "\(word)") }
        if case .null? = try YAMLReader.parse("v:\n")["v"]?.kind {} else { Issue.record("an empty value is null") }
        for word in ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"] { #expect(try kind(word) == "bool true", "\(word)") }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"] {
            #expect(try kind(word) == "bool false", "\(word)")
        }
        // Other case mixes, prefixes, longer words and look-alikes stay text.
        for word in [
            "nULL", "nul", "nulls", "tRUE", "truE", "tru", "truex", "yES", "ye", "yess", "oN", "o", "of", "offf", "fAlse", "falsey",
            "n", "N", "Y", "y", "T", "F", "One", "Two", "Off-line", "ñull", "nüll", "tr\u{0301}ue", "noé",
        ] {
            #expect(try kind(word) == "string \(word)", "\(word)")
        }
        // Quoted words are text.
        #expect(try kind("'yes'") == "string yes" && (try kind("\"null\"")) == "string null")
        #expect(try kind("2") == "integer 2" && (try kind("2.5")) == "number 2.5")
    }
}
