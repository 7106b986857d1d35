// The document fuzzer, in the main package so that one sanitizer build serves both the
// AddressSanitizer tests and fuzzing (scripts/sanitizer-build, scripts/fuzz):
//
// - built with the trait Fuzzing (the sanitizer build), libFuzzer drives `fuzz` with the
//   coverage that `-sanitize-coverage` put into every module;
// - built normally, it replays the files (or directories of files) it is given once each,
//   the corpus as a regression test: `.build/debug/DocumentFuzzer Fuzz/corpus`.
import Glibc

#if FUZZING
    import CFuzzing

    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data!, size) })
#else
    var files: [String] = []
    for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("-") {
        if let directory = opendir(argument) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if !name.hasPrefix(".") { files.append(argument + "/" + name) }
            }
            closedir(directory)
        } else {
            files.append(argument)
        }
    }
    var replayed = 0
    for path in files.sorted() {
        guard let file = fopen(path, "rb") else {
            let message = "DocumentFuzzer: \(path): cannot open\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(66)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        fclose(file)
        bytes.withUnsafeBufferPointer { buffer in _ = fuzz(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count) }
        replayed += 1
    }
    print("DocumentFuzzer: replayed \(replayed) inputs (built without libFuzzer: no fuzzing)")
#endif
