/// A value behind one reference: copying it is one retain, however many fields it has; writing it copies the
/// value first when another copy still shares it. For the large values a run hands from step to step (a
/// request's template, the variable context), whose field-by-field copies were a tenth of a run's work.
struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
    // `@unchecked`: `storage.value` is only written through `value`'s `_modify`, once `storage` is known to be
    // this copy's alone, so no two threads ever see one storage written.
    private final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    init(_ value: Value) { storage = Storage(value) }

    var value: Value {
        // Read in place: a getter returned a copy of the whole value (every field retained) to read one field.
        _read { yield storage.value }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }

    /// Whether both copies share one storage: then their values are equal without comparing them.
    func sharesStorage(with other: CopyOnWrite) -> Bool { storage === other.storage }
}
