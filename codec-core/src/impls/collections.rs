//! Sequences, maps, sets and tuples.

use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, PathSegment, Read, Result,
    Write,
};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};

impl<T: Encode> Encode for [T] {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        T::encode_slice(self, e)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Encode> Encode for Vec<T> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        T::encode_slice(self, e)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// An array (a byte string for `Vec<u8>`); nil decodes as empty, as ugorji's nil slice.
impl<'de, T: Decode<'de>> Decode<'de> for Vec<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Vec::new())
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode_vec(d)
    }
    #[inline]
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        T::decode_vec_into(self, d)
    }
}

/// An array of `N` items (a byte string for `[u8; N]`). Go's zero-length array is never empty-omitted
/// unless all items are empty.
impl<T: Encode, const N: usize> Encode for [T; N] {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        T::encode_slice(self, e)
    }
    /// Rows of `T` (`Vec<[T; N]>`): as `T` writes them ([`Encode::encode_rows`]).
    #[inline]
    fn encode_slice<W: Write, F: EncodeFormat>(items: &[Self], e: &mut Encoder<W, F>) -> Result<()>
    where
        Self: Sized,
    {
        T::encode_rows(items, e)
    }
    /// Empty when every item is empty (Go: an all-zero array).
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.iter().all(Encode::is_empty_value)
    }
}

impl<'de, T: Decode<'de>, const N: usize> Decode<'de> for [T; N] {
    #[inline]
    fn empty_value() -> Option<Self> {
        // Empty when every item is (see `is_empty_value`); built through a
        // `Vec` (this runs only for an absent field).
        let items: Option<Vec<T>> = (0..N).map(|_| T::empty_value()).collect();
        items?.try_into().ok()
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode_array::<R, F, N>(d)
    }
}

impl<T: Encode> Encode for VecDeque<T> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_array_iter(self.len(), self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for VecDeque<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(VecDeque::new())
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_array_vec().map(VecDeque::from)
    }
    /// Reuses the buffer: items present are decoded into, more are pushed, the rest dropped.
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        if d.try_decode_nil()? {
            self.clear();
            return Ok(());
        }
        let mut seq = d.array_begin()?;
        let mut n = 0;
        while d.array_next(&mut seq)? {
            let i = seq.index - 1;
            match self.get_mut(n) {
                Some(slot) => slot.decode_into(d).map_err(|e| e.in_index(i))?,
                None => self.push_back(T::decode(d).map_err(|e| e.in_index(i))?),
            }
            n += 1;
        }
        self.truncate(n);
        d.array_end(seq)
    }
}

impl<K: Encode, V: Encode, S> Encode for HashMap<K, V, S> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_map_iter(self.len(), self, false)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<K: Encode, V: Encode> Encode for BTreeMap<K, V> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_map_iter(self.len(), self, K::CANONICAL_ORD)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Encode, S> Encode for HashSet<T, S> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_set_iter(self.len(), self, false)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Encode> Encode for BTreeSet<T> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_set_iter(self.len(), self, T::CANONICAL_ORD)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// Adds the map entry whose value failed to the path: its key where the key
/// type gives a segment (`["alice"]`, `[5]`), else its position (`[i]`).
#[cold]
fn in_entry<'de, K: Decode<'de>>(e: Error, key: &K, i: usize) -> Error {
    e.within(key.path_segment().unwrap_or(PathSegment::Index(i)))
}

impl<'de, R: Read<'de>, F: DecodeFormat> Decoder<'de, R, F> {
    /// Reads a map, handing each entry to `insert`; nil is an empty map.
    /// An error in a value names its entry by key where the key type can
    /// ([`Decode::path_segment`]: `.users["alice"].age`), else by position.
    pub fn decode_map_entries<K: Decode<'de>, V: Decode<'de>>(
        &mut self,
        mut insert: impl FnMut(K, V),
    ) -> Result<()> {
        if self.try_decode_nil()? {
            return Ok(());
        }
        let mut seq = self.map_begin()?;
        while self.map_next(&mut seq)? {
            let i = seq.index - 1;
            let k = K::decode(self).map_err(|e| e.in_entry_key(i))?;
            self.map_value(&mut seq)?;
            let v = V::decode(self).map_err(|e| in_entry(e, &k, i))?;
            insert(k, v);
        }
        self.map_end(seq)
    }

    /// Reads a map into an existing map (ugorji's decode into a non-nil map):
    /// entries not in the input stay; for a key already present the input is
    /// decoded into the existing value, or replaces it with
    /// [`DecodeOptions::map_value_reset`](crate::DecodeOptions::map_value_reset);
    /// with [`DecodeOptions::delete_on_nil_map_value`](crate::DecodeOptions::delete_on_nil_map_value)
    /// a nil value removes the key. A nil in place of the map is the
    /// caller's to handle (the `HashMap` and `BTreeMap` impls clear the map,
    /// as ugorji sets a nil map): here it is a type mismatch.
    pub fn decode_map_into<M, K: Decode<'de>, V: Decode<'de>>(
        &mut self,
        map: &mut M,
        get_mut: impl for<'m> Fn(&'m mut M, &K) -> Option<&'m mut V>,
        insert: impl Fn(&mut M, K, V),
        remove: impl Fn(&mut M, &K),
    ) -> Result<()> {
        let reset = self.options().map_value_reset;
        let delete_nil = self.options().delete_on_nil_map_value;
        let mut seq = self.map_begin()?;
        while self.map_next(&mut seq)? {
            let i = seq.index - 1;
            let k = K::decode(self).map_err(|e| e.in_entry_key(i))?;
            self.map_value(&mut seq)?;
            if delete_nil && self.try_decode_nil()? {
                remove(map, &k);
                continue;
            }
            if !reset && let Some(slot) = get_mut(map, &k) {
                slot.decode_into(self).map_err(|e| in_entry(e, &k, i))?;
                continue;
            }
            let v = V::decode(self).map_err(|e| in_entry(e, &k, i))?;
            insert(map, k, v);
        }
        self.map_end(seq)
    }
}

impl<'de, K, V, S> Decode<'de> for HashMap<K, V, S>
where
    K: Decode<'de> + Eq + Hash,
    V: Decode<'de>,
    S: BuildHasher + Default,
{
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(HashMap::default())
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut m = HashMap::with_hasher(S::default());
        d.decode_map_entries(|k, v| {
            m.insert(k, v);
        })?;
        Ok(m)
    }
    /// Keeps the map's allocation and its entries: see [`Decoder::decode_map_into`].
    /// Nil clears the map (ugorji sets a nil map), as it clears a `Vec`.
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        if d.try_decode_nil()? {
            self.clear();
            return Ok(());
        }
        d.decode_map_into(
            self,
            |m, k| m.get_mut(k),
            |m, k, v| {
                m.insert(k, v);
            },
            |m, k| {
                m.remove(k);
            },
        )
    }
}

impl<'de, K: Decode<'de> + Ord, V: Decode<'de>> Decode<'de> for BTreeMap<K, V> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(BTreeMap::new())
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut m = BTreeMap::new();
        d.decode_map_entries(|k, v| {
            m.insert(k, v);
        })?;
        Ok(m)
    }
    /// Keeps the map's entries: see [`Decoder::decode_map_into`]. Nil
    /// clears the map (ugorji sets a nil map), as it clears a `Vec`.
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        if d.try_decode_nil()? {
            self.clear();
            return Ok(());
        }
        d.decode_map_into(
            self,
            |m, k| m.get_mut(k),
            |m, k, v| {
                m.insert(k, v);
            },
            |m, k| {
                m.remove(k);
            },
        )
    }
}

impl<'de, T, S> Decode<'de> for HashSet<T, S>
where
    T: Decode<'de> + Eq + Hash,
    S: BuildHasher + Default,
{
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(HashSet::default())
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let v: Vec<T> = d.decode_array_vec()?;
        let mut s = HashSet::with_capacity_and_hasher(v.len(), S::default());
        s.extend(v);
        Ok(s)
    }
}

impl<'de, T: Decode<'de> + Ord> Decode<'de> for BTreeSet<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(BTreeSet::new())
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let v: Vec<T> = d.decode_array_vec()?;
        Ok(v.into_iter().collect())
    }
}

macro_rules! tuple {
    ($len:expr => $($n:tt $t:ident),+) => {
        /// A tuple is an array of its items.
        impl<$($t: Encode),+> Encode for ($($t,)+) {
            fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
                e.array_start($len)?;
                $(
                    e.array_elem($n)?;
                    self.$n.encode(e)?;
                )+
                e.array_end($len)
            }
        }

        impl<'de, $($t: Decode<'de>),+> Decode<'de> for ($($t,)+) {
            fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
                let mut seq = d.array_begin()?;
                let out = ($(
                    {
                        if !d.array_next(&mut seq)? {
                            return Err(Error::new(crate::ErrorKind::InvalidLength {
                                expected: $len,
                                found: $n,
                            }).at(d.offset()));
                        }
                        $t::decode(d).map_err(|e| e.in_index($n))?
                    },
                )+);
                d.fixed_array_end(seq, $len)?;
                Ok(out)
            }
        }
    };
}

tuple!(1 => 0 A);
tuple!(2 => 0 A, 1 B);
tuple!(3 => 0 A, 1 B, 2 C);
tuple!(4 => 0 A, 1 B, 2 C, 3 D);
tuple!(5 => 0 A, 1 B, 2 C, 3 D, 4 E);
tuple!(6 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G);
tuple!(7 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H);
tuple!(8 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H, 7 I);
tuple!(9 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H, 7 I, 8 J);
tuple!(10 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H, 7 I, 8 J, 9 K);
tuple!(11 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H, 7 I, 8 J, 9 K, 10 L);
tuple!(12 => 0 A, 1 B, 2 C, 3 D, 4 E, 5 G, 6 H, 7 I, 8 J, 9 K, 10 L, 11 M);
