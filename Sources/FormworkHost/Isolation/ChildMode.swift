import CFormworkSystem
import FormworkCore
import Glibc

/// The hidden child modes of a host executable: `scan` (read pack descriptors),
/// `cells` (run cells) and `probe` (enter the sandbox and say which layers hold). The `formwork` command runs them for `formwork __child MODE`;
/// an application that embeds Formwork and wants isolation without shipping `formwork`
/// calls this from its own `main` when started with its launcher's arguments.
public enum ChildMode {
    /// Runs `mode` on descriptors 3 (the socket) and 4 (the progress page) and returns the exit status.
    public static func run(_ mode: String) -> Int32 {
        PackLog.inChild = true
        return switch mode {
        case "scan": PackScanner.childMain()
        case "cells": IsolatedCells.childMain()
        case "probe": ChildSandbox.probeMain()
        default: 64
        }
    }
}
