/// The pieces the renderers write a form in, each made on its own (on several cores for a large form) and
/// written in order: a section whole, or a large section's fields a run at a time. A form of one section
/// of 10,000 fields was laid out on one core, a form of many small sections made sections one by one.
struct SectionPiece {
    /// The section's index in the tree.
    var section: Int
    /// The section's fields in this piece (every one of a section that is not split).
    var fields: Range<Int>
    /// Whether the piece starts its section (its header, a page heading) and ends it (its footer).
    var first: Bool
    var last: Bool
}

enum SectionPieces {
    /// Fields per piece of a split section. A section of up to twice this many, or a repeatable group (laid
    /// out item by item), is one piece.
    static let size = 1024

    /// With `splitting` false, every section is one piece.
    static func plan(_ tree: ViewTree, splitting: Bool = true) -> [SectionPiece] {
        var pieces: [SectionPiece] = []
        pieces.reserveCapacity(tree.sections.count)
        for s in tree.sections.indices {
            let n = tree.sections[s].fields.count
            guard splitting, n > 2 * size, tree.sections[s].repeatGroup == nil else {
                pieces.append(SectionPiece(section: s, fields: 0..<n, first: true, last: true))
                continue
            }
            var start = 0
            while start < n {
                let end = n - start < 2 * size ? n : start + size
                pieces.append(SectionPiece(section: s, fields: start..<end, first: start == 0, last: end == n))
                start = end
            }
        }
        return pieces
    }

    /// Whether the form is worth making on several cores.
    static func parallel(_ pieces: [SectionPiece], fields: Int) -> Bool { fields >= 2000 && pieces.count > 1 }
}
