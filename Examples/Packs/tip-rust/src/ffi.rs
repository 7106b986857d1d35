//! The parts of `formwork.h` (ABI 1.0) this pack uses, written by hand.
//! Layouts must match the header exactly; `formwork check` verifies them.
#![allow(dead_code)]

use std::os::raw::{c_char, c_void};

pub type FwStatus = i32;
pub const FW_OK: FwStatus = 0;
pub const FW_INVALID_ARGUMENT: FwStatus = 2;
pub const FW_REJECTED: FwStatus = 4;

pub const FW_FIELD_NONE: u32 = 0;
pub const FW_FIELD_STRING: u32 = 1;
pub const FW_FIELD_BOOL: u32 = 3;
pub const FW_FIELD_INTEGER: u32 = 4;
pub const FW_FIELD_NUMBER: u32 = 5;

pub const FW_FIELD_REQUIRED: u32 = 1 << 0;
pub const FW_FIELD_HAS_MINIMUM: u32 = 1 << 1;
pub const FW_FIELD_HAS_MAXIMUM: u32 = 1 << 2;

pub const FW_CELL_TYPED_CONFIGURE: u32 = 1 << 2;
pub const FW_TYPED_BY_POINTER: u32 = 2;
pub const FW_TEXT_INPUT_NONE: u32 = 0;
pub const FW_TEXT_INPUT_TEXT_FIELD: u32 = 1;
pub const FW_LABEL_BODY: u32 = 0;
pub const FW_MESSAGE_HINT: u32 = 0;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FwVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FwStringList {
    pub items: *const *const c_char,
    pub count: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union FwValueAs {
    pub string: *const c_char,
    pub boolean: bool,
    pub integer: i64,
    pub number: f64,
    pub list: FwStringList,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FwValue {
    pub type_: u32,
    pub reserved: u32,
    pub as_: FwValueAs,
}

impl FwValue {
    pub const NONE: FwValue = FwValue { type_: FW_FIELD_NONE, reserved: 0, as_: FwValueAs { integer: 0 } };
    pub const fn integer(v: i64) -> FwValue {
        FwValue { type_: FW_FIELD_INTEGER, reserved: 0, as_: FwValueAs { integer: v } }
    }
    pub const fn number(v: f64) -> FwValue {
        FwValue { type_: FW_FIELD_NUMBER, reserved: 0, as_: FwValueAs { number: v } }
    }
    pub const fn boolean(v: bool) -> FwValue {
        FwValue { type_: FW_FIELD_BOOL, reserved: 0, as_: FwValueAs { boolean: v } }
    }
}

#[repr(C)]
pub struct FwChoice {
    pub struct_size: u32,
    pub reserved: u32,
    pub value: *const c_char,
    pub label: *const c_char,
}

#[repr(C)]
pub struct FwField {
    pub struct_size: u32,
    pub type_: u32,
    pub name: *const c_char,
    pub label: *const c_char,
    pub doc: *const c_char,
    pub flags: u32,
    pub choice_count: u32,
    pub choices: *const FwChoice,
    pub default_value: FwValue,
    pub minimum: f64,
    pub maximum: f64,
    pub min_length: u32,
    pub max_length: u32,
    pub options_field: *const c_char,
}

#[repr(C)]
pub struct FwHost {
    pub abi: FwVersion,
    pub struct_size: u32,
    pub name: *const c_char,
    pub version: *const c_char,
    pub host_data: *mut c_void,
    pub log: Option<unsafe extern "C" fn(*const FwHost, u32, *const c_char)>,
    pub get_extension: Option<unsafe extern "C" fn(*const FwHost, *const c_char) -> *const c_void>,
}

#[repr(C)]
pub struct FwCanvas {
    pub struct_size: u32,
    pub reserved: u32,
    pub begin_group: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char)>,
    pub end_group: Option<unsafe extern "C" fn(*mut c_void)>,
    pub label: Option<unsafe extern "C" fn(*mut c_void, *const c_char, u32)>,
    pub value: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char)>,
    pub text_input: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, *const c_char, *const c_char, u32)>,
    pub toggle: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, bool, u32)>,
    pub button: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, u32, u32)>,
    pub choice: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, *const FwChoice, u32, *const c_char, u32, u32)>,
    pub date: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, bool, f64, u32, u32)>,
    pub message: Option<unsafe extern "C" fn(*mut c_void, u32, *const c_char)>,
}

pub type TypedConfigure = unsafe extern "C" fn();

#[repr(C)]
pub struct FwCellType {
    pub struct_size: u32,
    pub flags: u32,
    pub id: *const c_char,
    pub name: *const c_char,
    pub summary: *const c_char,
    pub fields: *const FwField,
    pub field_count: u32,
    pub text_input_kind: u32,
    pub text_input_field: *const c_char,
    pub text_traits: *const c_void,
    pub create: Option<unsafe extern "C" fn(*const FwCellType, *const FwHost) -> *mut c_void>,
    pub destroy: Option<unsafe extern "C" fn(*mut c_void)>,
    pub configure: Option<unsafe extern "C" fn(*mut c_void, *const FwValue, u32) -> FwStatus>,
    pub render: Option<unsafe extern "C" fn(*mut c_void, *const FwCanvas, *mut c_void) -> FwStatus>,
    pub did_set_selected: Option<unsafe extern "C" fn(*mut c_void, bool)>,
    pub did_set_highlighted: Option<unsafe extern "C" fn(*mut c_void, bool)>,
    pub value_changed: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const FwValue, *mut *const c_char) -> FwStatus>,
    pub typed_convention: u32,
    pub model_alignment: u32,
    pub model_size: u64,
    pub typed_configure: Option<TypedConfigure>,
}

#[repr(C)]
pub struct FwPack {
    pub abi: FwVersion,
    pub struct_size: u32,
    pub id: *const c_char,
    pub name: *const c_char,
    pub version: *const c_char,
    pub vendor: *const c_char,
    pub license: *const c_char,
    pub description: *const c_char,
    pub init: Option<unsafe extern "C" fn(*const FwHost) -> FwStatus>,
    pub deinit: Option<unsafe extern "C" fn()>,
    pub cell_types: *const FwCellType,
    pub cell_type_count: u32,
    pub reserved: u32,
}

/// Statics holding raw pointers: they point only to other statics.
#[repr(transparent)]
pub struct Static<T>(pub T);
unsafe impl<T> Sync for Static<T> {}

/// A NUL-terminated literal.
#[macro_export]
macro_rules! cstr {
    ($s:expr) => {
        concat!($s, "\0").as_ptr() as *const std::os::raw::c_char
    };
}

// Layout pins, as in formwork.h (LP64).
const _: () = assert!(std::mem::size_of::<FwValue>() == 24);
const _: () = assert!(std::mem::size_of::<FwChoice>() == 24);
const _: () = assert!(std::mem::size_of::<FwField>() == 104);
const _: () = assert!(std::mem::size_of::<FwHost>() == 56);
const _: () = assert!(std::mem::size_of::<FwCanvas>() == 88);
const _: () = assert!(std::mem::size_of::<FwCellType>() == 144);
const _: () = assert!(std::mem::size_of::<FwPack>() == 96);
