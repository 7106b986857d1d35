/// The screen as last drawn, so that a redraw writes only the rows that changed.
///
/// Rows are complete terminal lines (styles included, already cut to the width);
/// a row that differs is rewritten in place (`CSI row;1H`, the row, `CSI K`).
/// A resize or a first frame clears and draws everything.
struct ScreenBuffer {
    private(set) var rows: [String] = []
    private(set) var columns = 0
    /// Rows written by the last `update` (what a benchmark or a test can check).
    private(set) var rowsWritten = 0

    /// The escape sequences that turn the current screen into `frame`, with the cursor
    /// left at `cursor` (row, column; 0-based) and shown, or hidden when nil.
    mutating func update(_ frame: [String], columns: Int, cursor: (row: Int, column: Int)?) -> String {
        var out = "\u{1B}[?25l"
        rowsWritten = 0
        if columns != self.columns || rows.isEmpty {
            out += "\u{1B}[H\u{1B}[2J"
            rows = []
            self.columns = columns
        }
        for (i, row) in frame.enumerated() where i >= rows.count || rows[i] != row {
            out += "\u{1B}[\(i + 1);1H" + row + "\u{1B}[0m\u{1B}[K"
            rowsWritten += 1
        }
        if rows.count > frame.count {
            for i in frame.count..<rows.count {
                out += "\u{1B}[\(i + 1);1H\u{1B}[K"
                rowsWritten += 1
            }
        }
        rows = frame
        if let cursor {
            out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        }
        return out
    }

    /// Forgets what is on the screen: the next update draws everything.
    mutating func invalidate() { rows = [] }
}
