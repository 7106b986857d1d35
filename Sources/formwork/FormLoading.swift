import ArgumentParser
import Formwork

/// Loading a document (and values), with every error printed and mapped to its exit code.
enum FormLoading {
    static func load(_ path: String, values: String?, registry: Registry) throws -> Form {
        do {
            var form = try FormDecoder.load(path: path, registry: registry)
            if let values { try ValuesFile.apply(path: values, to: &form) }
            return form
        } catch {
            report(error)
            throw ExitCode(error.exitCode)
        }
    }

    static func report(_ error: FormError) {
        if case .invalid(let diagnostics) = error {
            for d in diagnostics { Console.error(d.description) }
            let noun = diagnostics.count == 1 ? "problem" : "problems"
            Console.write(2, "formwork: \(diagnostics.count) \(noun) found\n")
        } else {
            Console.error(error.description)
        }
    }
}
