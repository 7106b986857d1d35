/// `repeat:` of a section: how many items its values may hold, and what one is called.
public struct RepeatGroup: Sendable, Equatable {
    public var minItems: Int
    public var maxItems: Int
    /// "Task": shown as "Task 1", "Add task", "Add another task?".
    public var itemLabel: String

    public init(minItems: Int, maxItems: Int, itemLabel: String) {
        self.minItems = minItems
        self.maxItems = maxItems
        self.itemLabel = itemLabel
    }
}

/// Where a field of a repeated item sits.
public struct ItemPosition: Sendable, Equatable {
    public var group: String
    public var index: Int
    public var name: String
}
