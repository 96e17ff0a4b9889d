//! [`MsgpackHandle`]: the configured MessagePack format.

use crate::decode::MsgpackDecoder;
use crate::encode::MsgpackEncoder;
use codec_core::{Handle, Options};

/// A configured MessagePack format: the shared [`Options`] plus the
/// msgpack options of ugorji's `MsgpackHandle` that change bytes.
///
/// The default writes the current MessagePack spec (str8, bin, ext, the
/// timestamp extension): ugorji's `WriteExt = true`. ugorji's own default,
/// the old "raw" spec, is [`MsgpackHandle::ugorji_default`] (or
/// `.write_ext(false)`).
///
/// ```
/// use codec_msgpack::MsgpackHandle;
///
/// let h = MsgpackHandle::default();
/// assert_eq!(codec_core::to_vec(&128i64, &h).unwrap(), [0xd1, 0x00, 0x80]);
///
/// let h = MsgpackHandle::default().positive_int_unsigned(true);
/// assert_eq!(codec_core::to_vec(&128i64, &h).unwrap(), [0xcc, 0x80]);
///
/// let h = MsgpackHandle::default().no_fixed_num(true);
/// assert_eq!(codec_core::to_vec(&1u8, &h).unwrap(), [0xcc, 0x01]);
///
/// let old = MsgpackHandle::ugorji_default();
/// assert_eq!(codec_core::to_vec(&vec![1u8, 2], &old).unwrap(), [0xa2, 1, 2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MsgpackHandle {
    /// Options shared by every handle (canonical order, limits, ...).
    pub options: Options,
    /// Write the current spec: str8 (`d9`), bin8/16/32 (`c4`..`c6`) for
    /// byte strings, and the timestamp extension (-1) for times. When false,
    /// write the old spec as ugorji does: strings and byte strings both use
    /// the raw family (`a0`..`bf`, `da`, `db`; never `d9` or `c4`) and a time
    /// is its 4/8/12-byte timestamp payload written as a raw string.
    ///
    /// Also changes decoding into [`codec_core::Value`]: when false (and
    /// [`MsgpackHandle::raw_to_string`] is false), a raw/str item becomes
    /// bytes, except as a map key where it becomes text, as ugorji does.
    ///
    /// ugorji's `WriteExt`. Default **true** here (ugorji's default is false).
    pub write_ext: bool,
    /// Write non-negative values of signed types with the unsigned families
    /// (`cc`..`cf`): `128i64` is `cc 80` instead of `d1 00 80`.
    /// ugorji's `PositiveIntUnsigned`. Default false.
    pub positive_int_unsigned: bool,
    /// Never use the positive or negative fixint forms: the smallest integer
    /// encodings are `d0 xx` (signed) and `cc xx` (unsigned).
    /// ugorji's `NoFixedNum`. Default false.
    pub no_fixed_num: bool,
    /// When decoding into [`codec_core::Value`], read raw/str items as text
    /// even when [`MsgpackHandle::write_ext`] is false.
    /// ugorji's `RawToString`. Default false.
    pub raw_to_string: bool,
}

impl Default for MsgpackHandle {
    fn default() -> Self {
        MsgpackHandle {
            options: Options::default(),
            write_ext: true,
            positive_int_unsigned: false,
            no_fixed_num: false,
            raw_to_string: false,
        }
    }
}

impl MsgpackHandle {
    /// A handle configured like ugorji's zero `MsgpackHandle{}`: the old
    /// spec (`write_ext = false`), everything else at its default.
    pub fn ugorji_default() -> Self {
        MsgpackHandle {
            write_ext: false,
            ..MsgpackHandle::default()
        }
    }

    /// Sets the shared [`Options`].
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets [`MsgpackHandle::write_ext`] (ugorji's `WriteExt`).
    pub fn write_ext(mut self, on: bool) -> Self {
        self.write_ext = on;
        self
    }

    /// Sets [`MsgpackHandle::positive_int_unsigned`] (ugorji's `PositiveIntUnsigned`).
    pub fn positive_int_unsigned(mut self, on: bool) -> Self {
        self.positive_int_unsigned = on;
        self
    }

    /// Sets [`MsgpackHandle::no_fixed_num`] (ugorji's `NoFixedNum`).
    pub fn no_fixed_num(mut self, on: bool) -> Self {
        self.no_fixed_num = on;
        self
    }

    /// Sets [`MsgpackHandle::raw_to_string`] (ugorji's `RawToString`).
    pub fn raw_to_string(mut self, on: bool) -> Self {
        self.raw_to_string = on;
        self
    }

    /// Sets [`codec_core::EncodeOptions::canonical`] (ugorji's `Canonical`).
    pub fn canonical(mut self, on: bool) -> Self {
        self.options.encode.canonical = on;
        self
    }
}

impl Handle for MsgpackHandle {
    type Enc = MsgpackEncoder;
    type Dec = MsgpackDecoder;

    #[inline]
    fn options(&self) -> &Options {
        &self.options
    }

    #[inline]
    fn enc_format(&self) -> MsgpackEncoder {
        MsgpackEncoder::new(self)
    }

    #[inline]
    fn dec_format(&self) -> MsgpackDecoder {
        MsgpackDecoder::new(self)
    }
}
