import Testing
@testable import FormworkCore

/// What a file is, read from its first bytes, and how a file field speaks of it.
@Suite("File uploads: sniffing, limits, names")
struct FileUploadTests {
    @Test("the type comes from the content: signatures, UTF-8 text, anything else is octet-stream")
    func sniffing() {
        #expect(FileUpload.sniff(Array("%PDF-1.7\n".utf8)) == "application/pdf")
        #expect(FileUpload.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]) == "image/png")
        #expect(FileUpload.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(FileUpload.sniff(Array("GIF89a..".utf8)) == "image/gif")
        #expect(FileUpload.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        // WEBP at offset 8 without RIFF first is not WebP.
        #expect(FileUpload.sniff(Array("XXXX\u{0}\u{0}\u{0}\u{0}WEBP".utf8)) == "application/octet-stream")
        #expect(FileUpload.sniff([0x50, 0x4B, 0x03, 0x04, 0]) == "application/zip")
        #expect(FileUpload.sniff(Array("naïve text\r\n\tline".utf8)) == "text/plain")
        #expect(FileUpload.sniff([0x00, 0x01, 0x02]) == "application/octet-stream")
        #expect(FileUpload.sniff(Array("<html>\u{7F}".utf8)) == "application/octet-stream")
        #expect(FileUpload.sniff([]) == "application/octet-stream")
        #expect(FileUpload.sniff([0xC3]) == "application/octet-stream")
        // A text longer than 4 KiB whose 4,096th byte cuts a character is still text.
        let long = Array(String(repeating: "a", count: 4095).utf8) + Array("é and more".utf8)
        #expect(FileUpload.sniff(long) == "text/plain")
    }

    @Test("accept, the summary a person reads, and the refusals")
    func limits() {
        let cv = FileUpload(accept: ["application/pdf", "image/*"], maxBytes: 2_000_000)
        #expect(cv.accepts("application/pdf") && cv.accepts("image/webp") && !cv.accepts("text/plain"))
        #expect(FileUpload().accepts("application/octet-stream"))
        #expect(cv.summary == "PDF or an image, at most 2 MB")
        #expect(
            FileUpload(accept: ["image/png", "image/jpeg", "application/zip"], maxBytes: 512_000).summary
                == "PNG, JPEG or ZIP, at most 512 KB")
        #expect(FileUpload().summary == "Any file, at most 10.5 MB")
        #expect(cv.htmlAccept == "application/pdf,.pdf,image/*")
        #expect(cv.problem(size: 2_000_000, type: "application/pdf", label: "CV") == nil)
        #expect(
            cv.problem(size: 2_000_001, type: "application/pdf", label: "CV")
                == "CV: the file is 2 MB; this field takes PDF or an image, at most 2 MB.")
        #expect(
            cv.problem(size: 10, type: "application/octet-stream", label: "CV")
                == "CV: the file is of a type Formwork does not recognise (read from its content, not its name); this field takes PDF or an image, at most 2 MB."
        )
        #expect(FileUpload.size(999) == "999 bytes" && FileUpload.size(1) == "1 byte" && FileUpload.size(1500) == "1.5 KB")
    }

    @Test("a file's name is its last component, without control characters, at most 255 bytes")
    func names() {
        #expect(FileUpload.safeName("C:\\Users\\ada\\cv.pdf") == "cv.pdf")
        #expect(FileUpload.safeName("../../etc/passwd") == "passwd")
        #expect(FileUpload.safeName("a\u{1B}[31mred\u{7}.txt") == "a[31mred.txt")
        #expect(FileUpload.safeName("..") == "file" && FileUpload.safeName("") == "file" && FileUpload.safeName("dir/") == "dir")
        #expect(FileUpload.safeName(String(repeating: "é", count: 300)).utf8.count == 254)
    }
}
