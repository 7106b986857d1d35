//! A Formwork cell pack in Rust: `com.example.tip`, a tip calculator.
//!
//! It uses the *typed* configure entry: the host lays out `TipModel` from the
//! schema with libffi and passes a pointer to it. Build: `cargo build --release`,
//! then `formwork check target/release/libformwork_tip.so`.

mod ffi;

use ffi::*;
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};

/// The typed model: members in schema order, with formwork.h's C types.
#[repr(C)]
pub struct TipModel {
    pub title: *const c_char, // string
    pub bill: f64,            // number
    pub percent: i64,         // integer
    pub split: i64,           // integer
    pub round_up: bool,       // bool
}

struct Tip {
    title: String,
    bill: f64,
    percent: i64,
    split: i64,
    round_up: bool,
    reason: Vec<u8>,
}

const FIELD: u32 = std::mem::size_of::<FwField>() as u32;

static FIELDS: Static<[FwField; 5]> = Static([
    FwField {
        struct_size: FIELD, type_: FW_FIELD_STRING, name: cstr!("title"), label: cstr!("Title"),
        doc: cstr!("What the bill is for."), flags: FW_FIELD_REQUIRED, choice_count: 0,
        choices: std::ptr::null(), default_value: FwValue::NONE, minimum: 0.0, maximum: 0.0,
        min_length: 0, max_length: 100, options_field: std::ptr::null(),
    },
    FwField {
        struct_size: FIELD, type_: FW_FIELD_NUMBER, name: cstr!("bill"), label: cstr!("Bill"),
        doc: cstr!("The amount before tip."), flags: FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, choice_count: 0,
        choices: std::ptr::null(), default_value: FwValue::number(0.0), minimum: 0.0, maximum: 1_000_000.0,
        min_length: 0, max_length: 0, options_field: std::ptr::null(),
    },
    FwField {
        struct_size: FIELD, type_: FW_FIELD_INTEGER, name: cstr!("percent"), label: cstr!("Tip %"),
        doc: cstr!("Tip in percent."), flags: FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, choice_count: 0,
        choices: std::ptr::null(), default_value: FwValue::integer(15), minimum: 0.0, maximum: 100.0,
        min_length: 0, max_length: 0, options_field: std::ptr::null(),
    },
    FwField {
        struct_size: FIELD, type_: FW_FIELD_INTEGER, name: cstr!("split"), label: cstr!("People"),
        doc: cstr!("How many people share the bill."), flags: FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, choice_count: 0,
        choices: std::ptr::null(), default_value: FwValue::integer(1), minimum: 1.0, maximum: 50.0,
        min_length: 0, max_length: 0, options_field: std::ptr::null(),
    },
    FwField {
        struct_size: FIELD, type_: FW_FIELD_BOOL, name: cstr!("roundUp"), label: cstr!("Round up"),
        doc: cstr!("Round each share up to a whole unit."), flags: 0, choice_count: 0,
        choices: std::ptr::null(), default_value: FwValue::boolean(false), minimum: 0.0, maximum: 0.0,
        min_length: 0, max_length: 0, options_field: std::ptr::null(),
    },
]);

unsafe fn text(p: *const c_char) -> String {
    if p.is_null() { String::new() } else { CStr::from_ptr(p).to_string_lossy().into_owned() }
}

unsafe extern "C" fn create(_type: *const FwCellType, _host: *const FwHost) -> *mut c_void {
    let tip = Tip { title: String::new(), bill: 0.0, percent: 15, split: 1, round_up: false, reason: Vec::new() };
    Box::into_raw(Box::new(tip)) as *mut c_void
}

unsafe extern "C" fn destroy(cell: *mut c_void) {
    if !cell.is_null() {
        drop(Box::from_raw(cell as *mut Tip));
    }
}

unsafe fn apply(cell: *mut c_void, m: &TipModel) -> FwStatus {
    if cell.is_null() || m.split < 1 || !(m.bill >= 0.0) {
        return FW_INVALID_ARGUMENT;
    }
    let tip = &mut *(cell as *mut Tip);
    tip.title = text(m.title);
    tip.bill = m.bill;
    tip.percent = m.percent;
    tip.split = m.split;
    tip.round_up = m.round_up;
    FW_OK
}

/// Typed configure, by pointer.
unsafe extern "C" fn configure_typed(cell: *mut c_void, model: *const TipModel) -> FwStatus {
    if model.is_null() { FW_INVALID_ARGUMENT } else { apply(cell, &*model) }
}

/// Generic configure: tagged values in schema order.
unsafe extern "C" fn configure(cell: *mut c_void, values: *const FwValue, count: u32) -> FwStatus {
    if count != 5 || values.is_null() {
        return FW_INVALID_ARGUMENT;
    }
    let v = std::slice::from_raw_parts(values, 5);
    let model = TipModel {
        title: if v[0].type_ == FW_FIELD_STRING { v[0].as_.string } else { std::ptr::null() },
        bill: if v[1].type_ == FW_FIELD_NUMBER { v[1].as_.number } else { 0.0 },
        percent: if v[2].type_ == FW_FIELD_INTEGER { v[2].as_.integer } else { 15 },
        split: if v[3].type_ == FW_FIELD_INTEGER { v[3].as_.integer } else { 1 },
        round_up: if v[4].type_ == FW_FIELD_BOOL { v[4].as_.boolean } else { false },
    };
    apply(cell, &model)
}

unsafe extern "C" fn render(cell: *mut c_void, canvas: *const FwCanvas, ctx: *mut c_void) -> FwStatus {
    let tip = &*(cell as *const Tip);
    let canvas = &*canvas;
    let total = tip.bill * (1.0 + tip.percent as f64 / 100.0);
    let mut share = total / tip.split as f64;
    if tip.round_up {
        share = share.ceil();
    }
    let line = if tip.split > 1 {
        format!("{:.2} with {}% tip, {:.2} each for {} people\0", total, tip.percent, share, tip.split)
    } else {
        format!("{:.2} with {}% tip\0", total, tip.percent)
    };
    let title = format!("{}\0", if tip.title.is_empty() { "Tip" } else { &tip.title });
    if let Some(value) = canvas.value {
        value(ctx, title.as_ptr() as *const c_char, line.as_ptr() as *const c_char);
    }
    if tip.round_up {
        if let Some(message) = canvas.message {
            message(ctx, FW_MESSAGE_HINT, cstr!("Shares are rounded up."));
        }
    }
    FW_OK
}

unsafe extern "C" fn value_changed(cell: *mut c_void, field: *const c_char, value: *const FwValue,
                                   message: *mut *const c_char) -> FwStatus {
    let tip = &mut *(cell as *mut Tip);
    let field = text(field);
    if field == "percent" && !value.is_null() && (*value).type_ == FW_FIELD_INTEGER && (*value).as_.integer > 100 {
        tip.reason = b"a tip above 100% is probably a typo\0".to_vec();
        *message = tip.reason.as_ptr() as *const c_char;
        return FW_REJECTED;
    }
    FW_OK
}

static CELLS: Static<[FwCellType; 1]> = Static([FwCellType {
    struct_size: std::mem::size_of::<FwCellType>() as u32,
    flags: FW_CELL_TYPED_CONFIGURE,
    id: cstr!("com.example.tip"),
    name: cstr!("Tip calculator"),
    summary: cstr!("A bill with tip, split between people (Rust, typed configure)."),
    fields: &FIELDS.0 as *const [FwField; 5] as *const FwField,
    field_count: 5,
    text_input_kind: 0,
    text_input_field: std::ptr::null(),
    text_traits: std::ptr::null(),
    create: Some(create),
    destroy: Some(destroy),
    configure: Some(configure),
    render: Some(render),
    did_set_selected: None,
    did_set_highlighted: None,
    value_changed: Some(value_changed),
    typed_convention: FW_TYPED_BY_POINTER,
    model_alignment: std::mem::align_of::<TipModel>() as u32,
    model_size: std::mem::size_of::<TipModel>() as u64,
    // SAFETY: the host calls it as `fw_status (*)(void *, const TipModel *)`, per typed_convention.
    typed_configure: Some(unsafe {
        std::mem::transmute::<unsafe extern "C" fn(*mut c_void, *const TipModel) -> FwStatus, TypedConfigure>(configure_typed)
    }),
}]);

static PACK: Static<FwPack> = Static(FwPack {
    abi: FwVersion { major: 1, minor: 0, patch: 0 },
    struct_size: std::mem::size_of::<FwPack>() as u32,
    id: cstr!("com.example.tip"),
    name: cstr!("Tip (example Rust pack)"),
    version: cstr!("0.1.0"),
    vendor: cstr!("Example Inc."),
    license: cstr!("MIT"),
    description: cstr!("A Formwork pack written in Rust without crates."),
    init: None,
    deinit: None,
    cell_types: &CELLS.0 as *const [FwCellType; 1] as *const FwCellType,
    cell_type_count: 1,
    reserved: 0,
});

/// The one exported entry.
#[no_mangle]
pub extern "C" fn formwork_pack_v1() -> *const FwPack {
    &PACK.0
}
