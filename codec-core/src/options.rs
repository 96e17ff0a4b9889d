//! Options shared by every handle.

/// Encoding options shared by every handle (ugorji's `EncodeOptions`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {
    /// Deterministic output: map entries sorted by key (strings bytewise,
    /// integers numerically, other keys by their encoded bytes) and struct
    /// fields in map form sorted by encoded name. ugorji's `Canonical`.
    pub canonical: bool,
    /// Encode every struct as an array of its fields in declaration order.
    /// ugorji's `StructToArray`.
    pub struct_to_array: bool,
    /// Treat every struct field as `#[codec(omitempty)]`: a field whose
    /// value is empty (`None`, 0, false, "", an empty collection) is left
    /// out. [`Options::omit_empty`] also sets
    /// [`DecodeOptions::absent_as_empty`], so that a handle reads back
    /// what it writes.
    pub omit_empty: bool,
}

/// Decoding options shared by every handle (ugorji's `DecodeOptions`),
/// including the limits that keep hostile input harmless.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Maximum nesting of arrays, maps, tags and extensions. Deeper input is
    /// an error, never a stack overflow. Default 256.
    pub max_depth: u32,
    /// Most bytes reserved up front from declared lengths by the collections
    /// being filled at one time (a collection and those nested in it share
    /// it); past it, collections grow as elements actually arrive. Default
    /// 64 KiB.
    pub max_prealloc: usize,
    /// Largest number of elements or entries one collection may have.
    /// Default `usize::MAX` (bounded in practice by the input size).
    pub max_len: usize,
    /// Longest text or byte string (or extension payload), in bytes.
    /// Default `usize::MAX`.
    pub max_str_len: usize,
    /// A struct map key with no matching field, or an item past a struct's
    /// last field when it is read from an array, is an error instead of
    /// being skipped. ugorji's `ErrorIfNoField`.
    pub error_on_unknown_field: bool,
    /// An input array longer than a fixed-size target (array, tuple, tuple
    /// struct) is an error instead of its extra items being skipped.
    /// ugorji's `ErrorIfNoArrayExpand`.
    pub error_on_array_overflow: bool,
    /// Into [`Value`](crate::Value), unsigned integers become signed when they
    /// fit. ugorji's `SignedInteger`.
    pub signed_integer: bool,
    /// With [`Decode::decode_into`](crate::Decode::decode_into) on a map, a key
    /// already present gets a freshly decoded value instead of the input being
    /// decoded into its existing value. ugorji's `MapValueReset`.
    pub map_value_reset: bool,
    /// With [`Decode::decode_into`](crate::Decode::decode_into) on a
    /// [`Value`](crate::Value), the value is replaced by a fresh one instead of
    /// being merged into (maps by key, arrays item by item, strings and bytes
    /// reusing their buffers). ugorji's `InterfaceReset`.
    pub interface_reset: bool,
    /// With [`Decode::decode_into`](crate::Decode::decode_into) on a map, a nil
    /// value removes the key. ugorji's `DeleteOnNilMapValue`.
    pub delete_on_nil_map_value: bool,
    /// How maps decode into [`Value`](crate::Value) (ugorji's `MapType` for
    /// `interface{}` targets).
    pub value_maps: ValueMaps,
    /// Into [`Value`](crate::Value), every integer becomes a float. Meant for
    /// JSON, whose numbers carry no type. ugorji's `PreferFloat`.
    pub prefer_float: bool,
    /// A struct field absent from the input takes its type's empty value
    /// ([`Decode::empty_value`](crate::Decode::empty_value): 0, false, "",
    /// an empty collection) instead of being a `MissingField` error, as Go
    /// leaves an absent field at its zero value. A type with no empty
    /// value (a struct, an enum) is still required. Set with
    /// [`EncodeOptions::omit_empty`] by [`Options::omit_empty`].
    pub absent_as_empty: bool,
}

/// How a map decodes into [`Value::Map`](crate::Value::Map).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueMaps {
    /// Every entry in document order, repeated keys included (the default:
    /// nothing is lost, and the map re-encodes byte for byte).
    #[default]
    Ordered,
    /// Document order of first appearance; a repeated key's later value
    /// replaces the earlier one (what a Go map gives ugorji).
    LastWins,
    /// Like `LastWins`, then sorted by key (`Value`'s order): a sorted map.
    Sorted,
    /// A repeated key is an error naming it, at the repeated key's first
    /// byte, as soon as it is read; its path ends `[key of entry n]`.
    RejectDuplicates,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_depth: 256,
            max_prealloc: 64 * 1024,
            max_len: usize::MAX,
            max_str_len: usize::MAX,
            error_on_unknown_field: false,
            error_on_array_overflow: false,
            signed_integer: false,
            map_value_reset: false,
            interface_reset: false,
            delete_on_nil_map_value: false,
            value_maps: ValueMaps::Ordered,
            prefer_float: false,
            absent_as_empty: false,
        }
    }
}

/// Encode and decode options together: what every handle carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Encoding options.
    pub encode: EncodeOptions,
    /// Decoding options.
    pub decode: DecodeOptions,
}

impl Options {
    /// Sets [`EncodeOptions::canonical`].
    pub fn canonical(mut self, on: bool) -> Self {
        self.encode.canonical = on;
        self
    }

    /// Sets [`EncodeOptions::struct_to_array`].
    pub fn struct_to_array(mut self, on: bool) -> Self {
        self.encode.struct_to_array = on;
        self
    }

    /// Sets [`EncodeOptions::omit_empty`] and, to read back what it
    /// leaves out, [`DecodeOptions::absent_as_empty`].
    pub fn omit_empty(mut self, on: bool) -> Self {
        self.encode.omit_empty = on;
        self.decode.absent_as_empty = on;
        self
    }

    /// Sets [`DecodeOptions::absent_as_empty`] alone.
    pub fn absent_as_empty(mut self, on: bool) -> Self {
        self.decode.absent_as_empty = on;
        self
    }

    /// Sets [`DecodeOptions::max_depth`].
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.decode.max_depth = depth;
        self
    }

    /// Sets [`DecodeOptions::max_prealloc`].
    pub fn max_prealloc(mut self, bytes: usize) -> Self {
        self.decode.max_prealloc = bytes;
        self
    }

    /// Sets [`DecodeOptions::max_len`].
    pub fn max_len(mut self, len: usize) -> Self {
        self.decode.max_len = len;
        self
    }

    /// Sets [`DecodeOptions::max_str_len`].
    pub fn max_str_len(mut self, len: usize) -> Self {
        self.decode.max_str_len = len;
        self
    }

    /// Sets [`DecodeOptions::error_on_unknown_field`].
    pub fn error_on_unknown_field(mut self, on: bool) -> Self {
        self.decode.error_on_unknown_field = on;
        self
    }

    /// Sets [`DecodeOptions::error_on_array_overflow`].
    pub fn error_on_array_overflow(mut self, on: bool) -> Self {
        self.decode.error_on_array_overflow = on;
        self
    }

    /// Sets [`DecodeOptions::map_value_reset`].
    pub fn map_value_reset(mut self, on: bool) -> Self {
        self.decode.map_value_reset = on;
        self
    }

    /// Sets [`DecodeOptions::interface_reset`].
    pub fn interface_reset(mut self, on: bool) -> Self {
        self.decode.interface_reset = on;
        self
    }

    /// Sets [`DecodeOptions::delete_on_nil_map_value`].
    pub fn delete_on_nil_map_value(mut self, on: bool) -> Self {
        self.decode.delete_on_nil_map_value = on;
        self
    }

    /// Sets [`DecodeOptions::value_maps`].
    pub fn value_maps(mut self, mode: ValueMaps) -> Self {
        self.decode.value_maps = mode;
        self
    }

    /// Sets [`DecodeOptions::prefer_float`].
    pub fn prefer_float(mut self, on: bool) -> Self {
        self.decode.prefer_float = on;
        self
    }

    /// Sets [`DecodeOptions::signed_integer`].
    pub fn signed_integer(mut self, on: bool) -> Self {
        self.decode.signed_integer = on;
        self
    }
}
