/*
 * formwork.h — the Formwork cell-pack ABI, version 1.2.
 *
 * This header is the whole contract between a Formwork host (the `Formwork`
 * Swift library, the `formwork` command) and a cell pack (a shared library
 * that provides cell types). It compiles cleanly as C99, C11, C++17 and C++20
 * (`-pedantic -Wall -Wextra -Werror`) with no dependency beyond the standard
 * headers, so packs can be written in C, C++, Rust or Swift.
 *
 * What 1.1 adds to 1.0 (append-only; a 1.0 pack loads and behaves as before):
 * field roles declared by the cell type (`fw_cell_type.value_field` ...), the
 * FW_FIELD_CHOICE_LIST field type, the `number` and `multi_choice` canvas
 * controls, the pack-context host extension (a pack learns its own file and
 * resource directory), the entry prototype, FW_ALIGNOF, and C++ helpers.
 * Every addition is marked "1.1".
 *
 * What 1.2 adds to 1.1 (append-only; 1.0 and 1.1 packs load and behave as
 * before): a target version (FW_TARGET_ABI_MINOR: build a pack that older
 * hosts load, with the newer declarations hidden), presence in typed configure
 * (FW_CELL_TYPED_PRESENCE: a typed model can tell an absent number, integer or
 * bool from 0 / false), and a step and exclusive bounds on number and integer
 * fields (`fw_field.step`, FW_FIELD_HAS_STEP, FW_FIELD_EXCLUSIVE_MINIMUM,
 * FW_FIELD_EXCLUSIVE_MAXIMUM), which the host checks in every path, and pack
 * extensions (`fw_pack.get_extension`), the first of them choices a pack
 * supplies at render and submit time (FW_PACK_EXTENSION_CHOICES). Every
 * addition is marked "1.2". The frozen headers of earlier versions are
 * published with Formwork's source (abi/1.0/formwork.h, abi/1.1/formwork.h).
 *
 * Thread tags: every function below says, in brackets, who calls it, on which
 * thread, and who owns what it is given, e.g.
 * [host → pack, one call at a time per instance; arguments valid during the call].
 * "host → pack" functions are the pack's, called by the host; "pack → host"
 * functions are the host's, called by the pack. In the isolated modes (the
 * default) every call into a pack runs in a child process, on one thread; in
 * process, on the caller's threads, under the rules of "Ownership, lifetime and
 * threads" below.
 *
 * ---------------------------------------------------------------------------
 * One entry per ABI major
 * ---------------------------------------------------------------------------
 * A pack exports exactly one symbol the host looks for:
 *
 *     FW_EXPORT const fw_pack *formwork_pack_v1(void);
 *
 * It returns a pointer to static data, is fast, and has no side effects: the
 * host calls it just to list a pack. Heavy work belongs in `fw_pack.init`.
 * A future incompatible ABI is exported under a new name (`formwork_pack_v2`),
 * so one library can serve several majors and a v1 host can say exactly why
 * it cannot load a v2-only pack.
 *
 * ---------------------------------------------------------------------------
 * Versioning and growth
 * ---------------------------------------------------------------------------
 * - Root structs (`fw_pack`, `fw_host`) start with an `fw_version` followed by
 *   `uint32_t struct_size`; every other struct the two sides exchange starts
 *   with `uint32_t struct_size`. Set it to `sizeof` the struct as your header
 *   declares it.
 * - Structs grow only by appending fields at the end, in a new minor version.
 *   A reader never reads past `struct_size`; a field beyond it takes the
 *   default documented next to it ("Default when absent").
 * - Enum values are explicit and never renumbered; new values are appended.
 * - Arrays of structs (cell types, fields, choices) are walked with a stride
 *   equal to the `struct_size` of their first element, and every element must
 *   carry the same `struct_size`. A plain `static const fw_field f[] = {...}`
 *   with `.struct_size = sizeof(fw_field)` satisfies this.
 * - `fw_version`, `fw_string_list` and `fw_value` are frozen value types:
 *   their layout never changes within a major.
 * - Compatibility is decided in one place, `fw_version_is_compatible`: same
 *   major, and pack minor <= host minor. See docs/abi.md.
 *
 * ---------------------------------------------------------------------------
 * Ownership, lifetime and threads (the rules every function below refers to)
 * ---------------------------------------------------------------------------
 * - Descriptors a pack returns (`fw_pack` and everything it points to) stay
 *   valid and unchanged for the life of the process. The host copies what it
 *   needs but may read them again at any time.
 * - Strings and arrays passed *into* a function are owned by the caller and
 *   valid only for the duration of that call; copy what you keep.
 * - Nothing is ever freed across the boundary by the other side.
 * - Strings are UTF-8 and NUL-terminated. A NULL optional string means absent.
 * - Packs are opened RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE and never unloaded.
 * - A cell instance is called from one thread at a time (not necessarily the
 *   same thread each time). Unless a cell type sets FW_CELL_THREAD_SAFE, the
 *   host also never calls `create` / `destroy` of one cell type concurrently.
 * - Functions return `fw_status`; on failure a function may explain itself
 *   through `fw_host.log` before returning.
 */
#ifndef FORMWORK_H
#define FORMWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Version                                                                   */
/* ------------------------------------------------------------------------- */

/** ABI version this header describes. A pack records it in `fw_pack.abi`. */
#define FW_ABI_VERSION_MAJOR 1
#define FW_ABI_VERSION_MINOR 2
#define FW_ABI_VERSION_PATCH 0

/**
 * 1.2. The ABI minor a pack targets, as MACOSX_DEPLOYMENT_TARGET does for an
 * operating system: define it before including this header to build a pack
 * that hosts of that minor load. The header then leaves out every declaration
 * newer than the target (so using one is a compile error, not a refusal at
 * load time), `sizeof` of each struct is the target's, and
 * FW_ABI_VERSION_INIT records the target minor in `fw_pack.abi`.
 * Default: this header's minor. Example: `cc -DFW_TARGET_ABI_MINOR=0 ...`
 * builds a pack that a 1.0 host loads.
 */
#ifndef FW_TARGET_ABI_MINOR
#define FW_TARGET_ABI_MINOR FW_ABI_VERSION_MINOR
#endif
#if FW_TARGET_ABI_MINOR > FW_ABI_VERSION_MINOR || FW_TARGET_ABI_MINOR < 0
#error "FW_TARGET_ABI_MINOR names an ABI minor this formwork.h does not describe (0 ... FW_ABI_VERSION_MINOR)"
#endif

/** Initializer for an `fw_version` holding the ABI version the pack targets (by default this header's). */
#define FW_ABI_VERSION_INIT { FW_ABI_VERSION_MAJOR, FW_TARGET_ABI_MINOR, FW_ABI_VERSION_PATCH }

/** Name of the entry symbol for ABI major 1. */
#define FW_PACK_ENTRY_SYMBOL "formwork_pack_v1"

/** Marks the one symbol a pack exports. Build packs with -fvisibility=hidden. */
#if defined(_WIN32)
#define FW_EXPORT __declspec(dllexport)
#else
#define FW_EXPORT __attribute__((visibility("default")))
#endif

/**
 * 1.1. The alignment of a type, for `fw_cell_type.model_alignment`, in every
 * language this header supports: C11 `_Alignof`, C++11 `alignof`, and in C99
 * the GNU/Clang `__alignof__` (or MSVC's `__alignof`).
 */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define FW_ALIGNOF(type) alignof(type)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define FW_ALIGNOF(type) _Alignof(type)
#elif defined(__GNUC__) || defined(__clang__)
#define FW_ALIGNOF(type) __alignof__(type)
#elif defined(_MSC_VER)
#define FW_ALIGNOF(type) __alignof(type)
#endif

/** A semantic version. Frozen value type (12 bytes). */
typedef struct fw_version {
    uint32_t major; /**< Incompatible changes: a new entry symbol. */
    uint32_t minor; /**< Append-only growth: new fields, enum values, functions. */
    uint32_t patch; /**< Documentation and bug fixes; never affects layout. */
} fw_version;

/**
 * The compatibility rule, decided here and nowhere else.
 *
 * A pack built against `pack` can be loaded by a host built against `host`
 * when the majors are equal and the pack's minor is not newer than the host's
 * (a newer pack may rely on fields or functions an older host does not know).
 * The patch level never matters.
 *
 * [either side, any thread; pure: no state, no allocation]
 */
static inline bool fw_version_is_compatible(fw_version host, fw_version pack) {
    return pack.major == host.major && pack.minor <= host.minor;
}

/* ------------------------------------------------------------------------- */
/* Status                                                                    */
/* ------------------------------------------------------------------------- */

/** Result of a call across the boundary. Values are explicit and frozen. */
typedef int32_t fw_status;
enum {
    FW_OK = 0,                /**< Success. */
    FW_ERROR = 1,             /**< Unspecified failure; details through fw_host.log. */
    FW_INVALID_ARGUMENT = 2,  /**< An argument or value was not acceptable. */
    FW_OUT_OF_MEMORY = 3,     /**< An allocation failed. */
    FW_REJECTED = 4,          /**< A value change was refused (value_changed). */
    FW_UNSUPPORTED = 5        /**< The operation is not supported by this cell. */
};

/* ------------------------------------------------------------------------- */
/* Values and the model schema                                               */
/* ------------------------------------------------------------------------- */

/**
 * Field types of a model schema, with the C type a field has in a typed model
 * struct (see `fw_cell_type.typed_configure`) and the `fw_value` member used
 * in the generic path.
 */
typedef uint32_t fw_field_type;
enum {
    FW_FIELD_NONE = 0,        /**< Not a field type: marks an absent value / no default. */
    FW_FIELD_STRING = 1,      /**< Single-line text. C: const char * (NULL when absent). value.as.string */
    FW_FIELD_TEXT = 2,        /**< Multi-line text. C: const char * (NULL when absent). value.as.string */
    FW_FIELD_BOOL = 3,        /**< C: bool. value.as.boolean */
    FW_FIELD_INTEGER = 4,     /**< C: int64_t. value.as.integer */
    FW_FIELD_NUMBER = 5,      /**< C: double. value.as.number */
    FW_FIELD_DATE = 6,        /**< Seconds since 1970-01-01T00:00:00Z. C: double. value.as.number */
    FW_FIELD_CHOICE = 7,      /**< One of the field's choices, by value. C: const char *. value.as.string */
    FW_FIELD_STRING_LIST = 8, /**< C: fw_string_list. value.as.list */
#if FW_TARGET_ABI_MINOR >= 1
    FW_FIELD_CHOICE_LIST = 9  /**< 1.1. Several of the field's choices, by value, each at most once.
                                   C: fw_string_list. value.as.list. min_length / max_length count items
                                   (min_length at most choice_count, or the pack is refused).
                                   A pack that claims ABI 1.0 cannot use it. */
#endif
};

/** A list of strings. Frozen value type (16 bytes). */
typedef struct fw_string_list {
    const char *const *items; /**< `count` UTF-8 strings; NULL only when count is 0. */
    size_t count;             /**< Number of items. */
} fw_string_list;

/**
 * A tagged value. Frozen value type (24 bytes).
 *
 * `type` says which member of `as` is meaningful; FW_FIELD_NONE means the
 * value is absent (no default, or an optional field left empty).
 * Ownership: whoever fills an fw_value owns the memory its pointers refer to
 * (see the rules at the top of this file).
 */
typedef struct fw_value {
    fw_field_type type; /**< The tag. */
    uint32_t reserved;  /**< Must be 0. */
    union {
        const char *string;   /**< STRING, TEXT, CHOICE. NULL is treated as absent. */
        bool boolean;         /**< BOOL. */
        int64_t integer;      /**< INTEGER. */
        double number;        /**< NUMBER, DATE. */
        fw_string_list list;  /**< STRING_LIST and CHOICE_LIST (1.1). */
    } as;
} fw_value;

/** One allowed value of an FW_FIELD_CHOICE field, or an entry shown by a choice control. */
typedef struct fw_choice {
    uint32_t struct_size; /**< sizeof(fw_choice). */
    uint32_t reserved;    /**< Must be 0. */
    const char *value;    /**< Machine value, unique within its list, non-empty. Required. */
    const char *label;    /**< Human label. Default when NULL: `value`. */
} fw_choice;

/** Flags of a field descriptor (`fw_field.flags`). */
enum {
    FW_FIELD_REQUIRED = 1u << 0,     /**< A document or values file must provide a value. For
                                          STRING and TEXT, "" is no value; for STRING_LIST and
                                          CHOICE_LIST, [] is a value (no items): use `min_length`
                                          1 to ask for at least one item. */
    FW_FIELD_HAS_MINIMUM = 1u << 1,  /**< `minimum` is meaningful (INTEGER, NUMBER, DATE). */
    FW_FIELD_HAS_MAXIMUM = 1u << 2,  /**< `maximum` is meaningful (INTEGER, NUMBER, DATE). */
#if FW_TARGET_ABI_MINOR >= 2
    FW_FIELD_HAS_STEP = 1u << 3,          /**< 1.2. `step` is meaningful (INTEGER, NUMBER): a value must be
                                               `minimum` (0 without one) plus a whole number of steps. */
    FW_FIELD_EXCLUSIVE_MINIMUM = 1u << 4, /**< 1.2. With FW_FIELD_HAS_MINIMUM: the value must be above
                                               `minimum`, not equal to it (INTEGER, NUMBER, DATE). */
    FW_FIELD_EXCLUSIVE_MAXIMUM = 1u << 5  /**< 1.2. With FW_FIELD_HAS_MAXIMUM: the value must be below
                                               `maximum`, not equal to it (INTEGER, NUMBER, DATE). */
#endif
};

/**
 * One field of a cell type's model schema.
 *
 * Fields are listed in schema order; that order is the order of `fw_value`s
 * in the generic configure call and of members in a typed model struct.
 * Lifetime: static, for the life of the process.
 *
 * Field roles: the host gives some model fields a meaning. A 1.1 cell type
 * declares them (`fw_cell_type.value_field` and the members after it); for a
 * 1.0 pack, and for a 1.1 member left NULL, the host uses these name
 * conventions (docs/abi.md, "Field roles"; kept in one place in the host,
 * `FieldRoles`):
 *   value     - the `text_input_field`, else a field named "value": what a
 *               values file sets, `fill` asks for and an HTML form submits;
 *   required  - an FW_FIELD_BOOL named "required": receives a document's
 *               `required: true`;
 *   title     - an FW_FIELD_STRING named "title": the label `fill` shows;
 *   maxLength - an FW_FIELD_INTEGER named "maxLength": a length limit on the
 *               value (HTML `maxlength`);
 *   placeholder - an FW_FIELD_STRING named "placeholder": example text (1.1).
 * A field with another name has no role; a field with one of these names but
 * another type has none either.
 */
typedef struct fw_field {
    uint32_t struct_size;       /**< sizeof(fw_field); also the stride of the array. */
    fw_field_type type;         /**< One of FW_FIELD_*, not FW_FIELD_NONE. */
    const char *name;           /**< Key in documents: [A-Za-z][A-Za-z0-9_]*, unique in the schema. Required. */
    const char *label;          /**< Human label. Default when NULL: `name`. */
    const char *doc;            /**< One-sentence documentation. Optional (NULL). */
    uint32_t flags;             /**< FW_FIELD_* flags (REQUIRED, HAS_MINIMUM, HAS_MAXIMUM; 1.2: HAS_STEP, EXCLUSIVE_*). */
    uint32_t choice_count;      /**< Number of `choices`; >= 1 for CHOICE and CHOICE_LIST, 0 otherwise. */
    const fw_choice *choices;   /**< Allowed values of a CHOICE or CHOICE_LIST field, unique by value. */
    fw_value default_value;     /**< Default; `type` FW_FIELD_NONE for none, else equal to `type`
                                     (DATE and NUMBER use as.number, TEXT/CHOICE use as.string). */
    double minimum;             /**< Smallest allowed value, if FW_FIELD_HAS_MINIMUM. */
    double maximum;             /**< Largest allowed value, if FW_FIELD_HAS_MAXIMUM; >= minimum. */
    uint32_t min_length;        /**< STRING/TEXT: fewest Unicode scalars; STRING_LIST: fewest items. 0: no limit. */
    uint32_t max_length;        /**< STRING/TEXT: most Unicode scalars; STRING_LIST: most items. 0: no limit. */
    const char *options_field;  /**< STRING field (1.1: or STRING_LIST field): name of another STRING_LIST
                                     field of the same model whose items are this field's allowed values
                                     (a picker's rows, a multi-select's options). Optional. */
#if FW_TARGET_ABI_MINOR >= 2
    double step;                /**< 1.2. The step between allowed values, if FW_FIELD_HAS_STEP: finite and
                                     above 0; a whole number for INTEGER. The host refuses values off the
                                     step in every path (values files, submissions, `fill`) before a
                                     configure, and draws number controls with it. Default when absent: none. */
#endif
} fw_field;

/* ------------------------------------------------------------------------- */
/* Text input                                                                */
/* ------------------------------------------------------------------------- */

/** How a cell takes text input (AirCollection's TextInputConfiguration kinds). */
typedef uint32_t fw_text_input_kind;
enum {
    FW_TEXT_INPUT_NONE = 0,         /**< No text input; `text_input_field` must be NULL. */
    FW_TEXT_INPUT_TEXT_FIELD = 1,   /**< Single line; binds a STRING field. */
    FW_TEXT_INPUT_TEXT_VIEW = 2,    /**< Multi-line; binds a STRING or TEXT field. */
    FW_TEXT_INPUT_PICKER = 3,       /**< Rows to pick from; binds a CHOICE field or a STRING field with options_field. */
    FW_TEXT_INPUT_DATE_PICKER = 4   /**< Binds a DATE field. */
};

/** Three-state trait: leave it to the platform (DEFAULT), or force off (NO) / on (YES). */
typedef uint32_t fw_tristate;
enum { FW_TRAIT_DEFAULT = 0, FW_TRAIT_NO = 1, FW_TRAIT_YES = 2 };

/** Automatic capitalisation of a text input (UITextAutocapitalizationType; HTML `autocapitalize`). */
typedef uint32_t fw_autocapitalization;
enum {
    FW_AUTOCAPITALIZATION_DEFAULT = 0,
    FW_AUTOCAPITALIZATION_NONE = 1,
    FW_AUTOCAPITALIZATION_WORDS = 2,
    FW_AUTOCAPITALIZATION_SENTENCES = 3,
    FW_AUTOCAPITALIZATION_ALL_CHARACTERS = 4
};

/** The keyboard a text input asks for (UIKeyboardType; HTML `type` / `inputmode`). */
typedef uint32_t fw_keyboard_type;
enum {
    FW_KEYBOARD_DEFAULT = 0,
    FW_KEYBOARD_ASCII = 1,
    FW_KEYBOARD_NUMBERS_AND_PUNCTUATION = 2,
    FW_KEYBOARD_URL = 3,
    FW_KEYBOARD_NUMBER_PAD = 4,
    FW_KEYBOARD_PHONE_PAD = 5,
    FW_KEYBOARD_NAME_PHONE_PAD = 6,
    FW_KEYBOARD_EMAIL = 7,
    FW_KEYBOARD_DECIMAL_PAD = 8,
    FW_KEYBOARD_WEB_SEARCH = 9
};

/** Keyboard appearance (UIKeyboardAppearance). */
typedef uint32_t fw_keyboard_appearance;
enum { FW_KEYBOARD_APPEARANCE_DEFAULT = 0, FW_KEYBOARD_APPEARANCE_LIGHT = 1, FW_KEYBOARD_APPEARANCE_DARK = 2 };

/** The label of the return key (UIReturnKeyType; HTML `enterkeyhint`). */
typedef uint32_t fw_return_key;
enum {
    FW_RETURN_KEY_DEFAULT = 0,
    FW_RETURN_KEY_GO = 1,
    FW_RETURN_KEY_NEXT = 2,
    FW_RETURN_KEY_DONE = 3,
    FW_RETURN_KEY_SEARCH = 4,
    FW_RETURN_KEY_SEND = 5,
    FW_RETURN_KEY_JOIN = 6,
    FW_RETURN_KEY_CONTINUE = 7
};

/** When a text field shows its clear button (UITextField.ViewMode). */
typedef uint32_t fw_clear_button_mode;
enum {
    FW_CLEAR_BUTTON_DEFAULT = 0,
    FW_CLEAR_BUTTON_NEVER = 1,
    FW_CLEAR_BUTTON_WHILE_EDITING = 2,
    FW_CLEAR_BUTTON_UNLESS_EDITING = 3,
    FW_CLEAR_BUTTON_ALWAYS = 4
};

/** Data detectors of a text view (bit set). */
enum {
    FW_DATA_DETECTOR_PHONE_NUMBER = 1u << 0,
    FW_DATA_DETECTOR_LINK = 1u << 1,
    FW_DATA_DETECTOR_ADDRESS = 1u << 2,
    FW_DATA_DETECTOR_CALENDAR_EVENT = 1u << 3
};

/** What a date picker picks (UIDatePicker.Mode; HTML `type="date|time|datetime-local"`). */
typedef uint32_t fw_date_picker_mode;
enum {
    FW_DATE_PICKER_DEFAULT = 0,        /**< Same as DATE_AND_TIME. */
    FW_DATE_PICKER_TIME = 1,
    FW_DATE_PICKER_DATE = 2,
    FW_DATE_PICKER_DATE_AND_TIME = 3,
    FW_DATE_PICKER_COUNTDOWN = 4
};

/**
 * Default text-input traits of a cell type. A document can override each of
 * them per field (`textInput:` in the form document).
 * Every member's zero value means "default", so a zeroed struct is valid.
 * Lifetime: static, for the life of the process.
 */
typedef struct fw_text_traits {
    uint32_t struct_size;                      /**< sizeof(fw_text_traits). */
    fw_autocapitalization autocapitalization;  /**< Text field / view. Default when absent: DEFAULT. */
    fw_tristate autocorrection;                /**< Text field / view. Default when absent: DEFAULT. */
    fw_tristate spell_checking;                /**< Text field / view. Default when absent: DEFAULT. */
    fw_tristate smart_dashes;                  /**< Text field / view. Default when absent: DEFAULT. */
    fw_tristate smart_quotes;                  /**< Text field / view. Default when absent: DEFAULT. */
    fw_tristate smart_insert_delete;           /**< Text field / view. Default when absent: DEFAULT. */
    fw_keyboard_type keyboard;                 /**< Text field / view. Default when absent: DEFAULT. */
    fw_keyboard_appearance keyboard_appearance;/**< Text field / view. Default when absent: DEFAULT. */
    fw_return_key return_key;                  /**< Text field / view. Default when absent: DEFAULT. */
    fw_clear_button_mode clear_button;         /**< Text field only. Default when absent: DEFAULT. */
    fw_tristate secure_entry;                  /**< Text field only: mask the entry. Default when absent: DEFAULT (off). */
    const char *content_type;                  /**< Text field / view: semantic content ("username",
                                                    "password", "newPassword", "email", "name", "tel",
                                                    "url", "oneTimeCode", ...). Default when absent: NULL. */
    uint32_t data_detectors;                   /**< Text view only: FW_DATA_DETECTOR_* bits. Default: 0. */
    fw_tristate selectable;                    /**< Text view only. Default when absent: DEFAULT (yes). */
    fw_date_picker_mode date_mode;             /**< Date picker only. Default when absent: DEFAULT. */
    uint32_t reserved;                         /**< Must be 0. */
    const char *minimum_field;                 /**< Date picker: name of a DATE model field holding the
                                                    earliest selectable date. Default when absent: NULL. */
    const char *maximum_field;                 /**< Date picker: name of a DATE model field holding the
                                                    latest selectable date. Default when absent: NULL. */
} fw_text_traits;

/* ------------------------------------------------------------------------- */
/* Host services                                                             */
/* ------------------------------------------------------------------------- */

/** Severity of a message passed to fw_host.log. */
typedef uint32_t fw_log_level;
enum { FW_LOG_DEBUG = 0, FW_LOG_INFO = 1, FW_LOG_WARNING = 2, FW_LOG_ERROR = 3 };

/**
 * Services the host offers to a pack. Passed to `fw_pack.init` and
 * `fw_cell_type.create`; valid for the life of the process.
 */
typedef struct fw_host {
    fw_version abi;       /**< The host's ABI version. */
    uint32_t struct_size; /**< sizeof(fw_host) as the host knows it. */
    const char *name;     /**< Host name, e.g. "formwork". */
    const char *version;  /**< Host version string. */
    void *host_data;      /**< Opaque to packs. */

    /**
     * Reports a message (e.g. why a call failed). The host copies `message`
     * (UTF-8; invalid bytes are shown as such, control characters made visible).
     * [pack → host, any thread; `message` the pack's, read during the call]
     * During a call into the pack, on that call's thread: the message belongs to
     * the call and is quoted in its error if the call fails (at most 64 per
     * call), and nowhere else. From any other thread (one the pack started), or
     * outside a call: printed once on standard error as
     * "formwork: pack output: ID: message" (ID the pack's identifier), at most
     * 64 such messages per pack and process (the host then says it drops the
     * rest).
     */
    void (*log)(const struct fw_host *host, fw_log_level level, const char *message);

    /**
     * Returns an optional host interface named by a versioned string id such as
     * "org.formwork.clock/1", or NULL when the host does not offer it. The
     * returned pointer stays valid for the life of the process.
     * [pack → host, any thread, from `init` on; `id` the pack's, read during the
     * call; the result the host's, never freed by the pack]
     */
    const void *(*get_extension)(const struct fw_host *host, const char *id);
} fw_host;

/**
 * 1.1. Host extension "org.formwork.pack-context/1": where the calling pack
 * lives. `host->get_extension(host, FW_EXTENSION_PACK_CONTEXT)` returns a
 * `const fw_pack_context *` describing the pack that received `host` (each
 * pack gets its own `fw_host`), or NULL from a 1.0 host. Valid for the life of
 * the process. Typical use: find data files in `init`.
 * [pack → host, from `init` on, any thread]
 */
#define FW_EXTENSION_PACK_CONTEXT "org.formwork.pack-context/1"

typedef struct fw_pack_context {
    uint32_t struct_size;      /**< sizeof(fw_pack_context) as the host knows it. */
    uint32_t reserved;         /**< 0. */
    const char *pack_path;     /**< Absolute real path of the pack's shared library. */
    const char *resource_dir;  /**< `<directory of the library>/<pack id>`: the pack's own data
                                    directory. It may not exist; the host never creates it. */
} fw_pack_context;

/* ------------------------------------------------------------------------- */
/* Rendering: the canvas                                                     */
/* ------------------------------------------------------------------------- */

/** Flags of a canvas control. */
enum {
    FW_CONTROL_DISABLED = 1u << 0,  /**< Shown but not editable. */
    FW_CONTROL_REQUIRED = 1u << 1,  /**< Marked as required. */
    FW_CONTROL_MULTILINE = 1u << 2  /**< Text input spans several lines (text view). */
};

/** Typographic style of fw_canvas.label. */
typedef uint32_t fw_label_style;
enum { FW_LABEL_BODY = 0, FW_LABEL_TITLE = 1, FW_LABEL_CAPTION = 2, FW_LABEL_EMPHASIS = 3 };

/** What a button does, which decides its look (primary submits the form in HTML). */
typedef uint32_t fw_button_role;
enum { FW_BUTTON_DEFAULT = 0, FW_BUTTON_PRIMARY = 1, FW_BUTTON_CANCEL = 2, FW_BUTTON_DESTRUCTIVE = 3 };

/** How fw_canvas.choice is shown: a menu (picker, HTML <select>) or segments (radio group). */
typedef uint32_t fw_choice_style;
enum { FW_CHOICE_MENU = 0, FW_CHOICE_SEGMENTS = 1 };

/** Kind of fw_canvas.message. */
typedef uint32_t fw_message_kind;
enum { FW_MESSAGE_HINT = 0, FW_MESSAGE_ERROR = 1, FW_MESSAGE_WARNING = 2 };

/** 1.1. How fw_canvas.number is shown: a field (HTML number input), a stepper (- value +), a slider (HTML range). */
typedef uint32_t fw_number_style;
enum { FW_NUMBER_FIELD = 0, FW_NUMBER_STEPPER = 1, FW_NUMBER_SLIDER = 2 };

/** 1.1. How fw_canvas.multi_choice is shown: checkboxes, or a list allowing several selections. */
typedef uint32_t fw_multi_choice_style;
enum { FW_MULTI_CHOICE_CHECKBOXES = 0, FW_MULTI_CHOICE_LIST = 1 };

/**
 * View primitives a cell draws with, provided by the host for the duration of
 * one `render` call. The host records a view tree from the calls and turns it
 * into text, ANSI, HTML or JSON; a pack never writes bytes to any output.
 *
 * Every function takes the `canvas_ctx` that was passed to `render` as `ctx`.
 * `field` arguments name the model field a control edits (NULL for none); the
 * host maps them to document field ids and accessibility ids.
 * [pack → host, on the thread that called `render`, only during that call;
 * every pointer argument is the pack's and need only live for the call: the
 * host copies it. `ctx` and the canvas itself are the host's and invalid once
 * `render` returns.] This tag applies to every function of the canvas.
 * A pack must check `struct_size` before calling a function appended in a
 * later minor version; every function of 1.0 is always present.
 */
typedef struct fw_canvas {
    uint32_t struct_size; /**< sizeof(fw_canvas) as the host knows it. */
    uint32_t reserved;    /**< Set to 0 by the host; packs ignore it. */

    /** Opens a group (a row, a stack); `role` e.g. "row", "stack"; `title` may be NULL. */
    void (*begin_group)(void *ctx, const char *role, const char *title);
    /** Closes the innermost open group. Unbalanced calls are closed by the host. */
    void (*end_group)(void *ctx);
    /** Static text. */
    void (*label)(void *ctx, const char *text, fw_label_style style);
    /** A read-only labelled value (e.g. "Rating: ★★★☆☆"). */
    void (*value)(void *ctx, const char *label, const char *text);
    /** A text input bound to `field`; `text` and `placeholder` may be NULL. Flags: FW_CONTROL_*. */
    void (*text_input)(void *ctx, const char *field, const char *label, const char *text,
                       const char *placeholder, uint32_t flags);
    /** An on/off switch bound to `field`. */
    void (*toggle)(void *ctx, const char *field, const char *label, bool on, uint32_t flags);
    /** A button; `field` names the action (may be NULL). */
    void (*button)(void *ctx, const char *field, const char *title, fw_button_role role, uint32_t flags);
    /** A choice among `count` choices (stride: choices[0].struct_size; `choices` may be NULL when `count`
        is 0); `selected` is a value or NULL. */
    void (*choice)(void *ctx, const char *field, const char *label, const fw_choice *choices,
                   uint32_t count, const char *selected, fw_choice_style style, uint32_t flags);
    /** A date input bound to `field`; `seconds` is meaningful when `has_value`. */
    void (*date)(void *ctx, const char *field, const char *label, bool has_value, double seconds,
                 fw_date_picker_mode mode, uint32_t flags);
    /** A hint, warning or error message shown with the cell. */
    void (*message)(void *ctx, fw_message_kind kind, const char *text);

    /* ---- 1.1: check `struct_size >= offsetof(fw_canvas, number) + sizeof(void *)` before calling.
     * A host loads a pack only when its minor is at least the pack's, so a pack that claims 1.1
     * always has these; the check matters to a pack that claims 1.0 (to load in a 1.0 host too)
     * and uses them when a newer host offers them. */

    /**
     * 1.1. A number input bound to an INTEGER or NUMBER `field`; `value` is
     * meaningful when `has_value`. `minimum`, `maximum` and `step` are NaN when
     * absent (a step of 1 is implied for an INTEGER field).
     */
    void (*number)(void *ctx, const char *field, const char *label, bool has_value, double value,
                   double minimum, double maximum, double step, fw_number_style style, uint32_t flags);
    /**
     * 1.1. Several choices at once, bound to a CHOICE_LIST (or STRING_LIST)
     * `field`: `count` choices (stride choices[0].struct_size; `choices` may be
     * NULL when `count` is 0) and the values selected now (`selected` may be
     * NULL for none).
     */
    void (*multi_choice)(void *ctx, const char *field, const char *label, const fw_choice *choices,
                         uint32_t count, const fw_string_list *selected, fw_multi_choice_style style,
                         uint32_t flags);
} fw_canvas;

/* ------------------------------------------------------------------------- */
/* Cell types                                                                */
/* ------------------------------------------------------------------------- */

/** Capability flags of a cell type (`fw_cell_type.flags`). */
enum {
    FW_CELL_SELECTABLE = 1u << 0,      /**< did_set_selected is provided. */
    FW_CELL_HIGHLIGHTABLE = 1u << 1,   /**< did_set_highlighted is provided. */
    FW_CELL_TYPED_CONFIGURE = 1u << 2, /**< typed_configure is provided. */
    FW_CELL_THREAD_SAFE = 1u << 3,     /**< create/destroy may run concurrently; distinct
                                            instances may be used on distinct threads at once. */
#if FW_TARGET_ABI_MINOR >= 2
    FW_CELL_TYPED_PRESENCE = 1u << 4   /**< 1.2. With FW_CELL_TYPED_CONFIGURE: the typed model struct
                                            ends with a presence bitmap (see `typed_configure`). */
#endif
};

#if FW_TARGET_ABI_MINOR >= 2
/**
 * 1.2. The bytes of a typed model's presence bitmap for a schema of
 * `field_count` fields: declare it as the struct's last member,
 * `uint8_t present[FW_PRESENCE_BYTES(N)]`.
 */
#define FW_PRESENCE_BYTES(field_count) (((field_count) + 7u) / 8u)

/**
 * 1.2. Whether field `index` (schema order) has a value in a typed model with
 * FW_CELL_TYPED_PRESENCE: bit `index % 8` of byte `index / 8` of `present`.
 * [either side, any thread; pure]
 */
static inline bool fw_is_present(const uint8_t *present, uint32_t index) {
    return ((present[index / 8u] >> (index % 8u)) & 1u) != 0;
}
#endif

/** Calling convention of `typed_configure`. */
typedef uint32_t fw_typed_convention;
enum {
    FW_TYPED_NONE = 0,       /**< No typed configure. */
    FW_TYPED_BY_VALUE = 1,   /**< fw_status (*)(void *cell, MODEL model) */
    FW_TYPED_BY_POINTER = 2  /**< fw_status (*)(void *cell, const MODEL *model) */
};

/** A function pointer of unspecified signature; cast per `fw_typed_convention`. */
typedef void (*fw_typed_configure_fn)(void);

struct fw_cell_type;

/**
 * A cell type: its registration entry (identifier, model schema, text-input
 * configuration) and its vtable. Lifetime: static, for the life of the process.
 *
 * Instances: `create` returns an opaque `void *cell`; every other function
 * receives it. The host calls an instance from one thread at a time and keeps
 * a pool of instances per cell type, re-configuring a pooled instance for
 * another field (so `configure` must fully replace the previous model).
 */
typedef struct fw_cell_type {
    uint32_t struct_size;          /**< sizeof(fw_cell_type); also the stride of the array. */
    uint32_t flags;                /**< FW_CELL_* capability flags. */
    const char *id;                /**< Identifier, reverse-DNS ("org.example.rating"), unique across
                                        all loaded packs. Required. */
    const char *name;              /**< Display name. Required. */
    const char *summary;           /**< One sentence. Optional (NULL). */
    const fw_field *fields;        /**< Model schema, in order (stride fields[0].struct_size). */
    uint32_t field_count;          /**< Number of fields (may be 0). */
    fw_text_input_kind text_input_kind; /**< FW_TEXT_INPUT_*. */
    const char *text_input_field;  /**< Model field the text input binds to; NULL iff kind is NONE. */
    const fw_text_traits *text_traits; /**< Default traits; NULL means all defaults. */

    /**
     * Creates an instance. `type` is this descriptor (so one function can serve
     * several cell types); `host` lives for the process.
     * Returns the instance, or NULL on failure (log why).
     * [host → pack, any thread, never concurrently for one cell type unless
     * FW_CELL_THREAD_SAFE; after the pack's `init`; the instance is the pack's
     * until `destroy`] Required.
     */
    void *(*create)(const struct fw_cell_type *type, const fw_host *host);

    /**
     * Destroys an instance created by `create`; the pack frees what it owns.
     * [host → pack, once per instance, any thread, never concurrently with
     * another call on the instance (nor, without FW_CELL_THREAD_SAFE, with
     * `create` or `destroy` of the same cell type); before the pack's `deinit`.
     * `cell` is invalid afterwards] Required.
     */
    void (*destroy)(void *cell);

    /**
     * Generic configure (AirCollection's `configure(_ model: Any)`): `values`
     * holds `count` values in schema order, `count` equal to `field_count`;
     * a value of type FW_FIELD_NONE means absent. Valid only during the call.
     * Returns FW_OK, or FW_INVALID_ARGUMENT (log why). Required.
     * [host → pack, one call at a time per instance, any thread; `values` and
     * every string and list in them are the host's, valid during the call only:
     * copy what you keep. Replaces the whole previous model of a reused
     * instance]
     */
    fw_status (*configure)(void *cell, const fw_value *values, uint32_t count);

    /**
     * Draws the configured instance through `canvas`, passing `canvas_ctx`
     * back to every canvas function. Both are valid only during the call.
     * Returns FW_OK or FW_ERROR. Required.
     * [host → pack, one call at a time per instance, any thread, after
     * `configure` (and `value_changed` or the selection calls, when any); call
     * the canvas only from this thread and only before returning]
     */
    fw_status (*render)(void *cell, const fw_canvas *canvas, void *canvas_ctx);

    /**
     * Selection changed (SelectableView). Required iff FW_CELL_SELECTABLE; else NULL.
     * The host calls it with true when the user chooses or activates the cell
     * (`formwork fill`: a picker's item, a segment, a multi-select item, a toggle
     * switched, a button pressed), after configure and before render, so that
     * render can show the result (a toggle may flip itself: the host reads the new
     * value from what render draws); then with false before the instance is reused.
     * [host → pack, one call at a time per instance, any thread, between
     * `configure` and `render`]
     */
    void (*did_set_selected)(void *cell, bool selected);

    /**
     * Highlight changed (HighlightableView). Required iff FW_CELL_HIGHLIGHTABLE; else NULL.
     * The host calls it with true when the cell's field gets the focus (`formwork
     * fill`), after configure and before render, and with false after that render,
     * before the instance is reused for another field.
     * [host → pack, one call at a time per instance, any thread, between
     * `configure` and `render`]
     */
    void (*did_set_highlighted)(void *cell, bool highlighted);

    /**
     * A user edited `field` to `value` (both valid only during the call).
     * Return FW_OK to accept, or FW_REJECTED and set `*message` to a reason the
     * pack owns and keeps valid until the next call on this instance.
     * Optional (NULL: every change is accepted).
     * [host → pack, one call at a time per instance, any thread, always after
     * `configure` of the instance; `field` and `value` are the host's, valid
     * during the call only (keep no pointer into them); `*message` the pack's]
     */
    fw_status (*value_changed)(void *cell, const char *field, const fw_value *value,
                               const char **message);

    /**
     * Typed configure (AirCollection's `configure(model: Model)`): the host
     * lays out a struct whose members follow the schema order and C types (see
     * fw_field_type), checks that its size and alignment equal `model_size`
     * and `model_alignment`, and calls `typed_configure` with the convention
     * below (by value: directly where the platform's convention for the
     * struct is known, x86-64 System V; through libffi elsewhere — the struct
     * arrives as a C compiler passes it either way). Pointers inside the
     * struct are valid only during the call. An absent value (no default, not
     * given) is NULL for strings, an empty list, 0 for numbers and integers,
     * false for bools, and NaN for dates: without presence (every 1.0 and 1.1
     * pack) a typed model cannot tell an absent number, integer or bool from 0
     * or false.
     * 1.2, presence: with FW_CELL_TYPED_PRESENCE the struct's last member is
     * `uint8_t present[FW_PRESENCE_BYTES(field_count)]` (counted in
     * `model_size`), and the host sets bit i (`fw_is_present(m.present, i)`)
     * exactly when field i has a value, given or the schema's default (the
     * generic path says the same with FW_FIELD_NONE); the other bits are 0.
     * Required iff FW_CELL_TYPED_CONFIGURE; the generic `configure`
     * must still be provided, and both must apply the same model (`formwork
     * check` renders both and compares).
     * [host → pack, one call at a time per instance, any thread, in place of
     * `configure`; the struct (or the pointer to it) and everything it points
     * to are the host's, valid during the call only]
     */
    fw_typed_convention typed_convention; /**< FW_TYPED_*. */
    uint32_t model_alignment;             /**< FW_ALIGNOF(MODEL), or 0 without typed configure. */
    uint64_t model_size;                  /**< sizeof(MODEL), or 0 without typed configure. */
    fw_typed_configure_fn typed_configure;/**< Cast to the convention's signature. */

#if FW_TARGET_ABI_MINOR >= 1
    /*
     * 1.1: field roles. Each names a field of the model (checked at load), or is
     * "" for "this cell has no such field". NULL (and a 1.0 pack, whose
     * struct_size ends before these) means the 1.0 name convention: see the
     * comment above fw_field. Default when absent: NULL.
     */
    const char *value_field;       /**< 1.1. The field a values file sets, `fill` asks for and a
                                        submitted form carries (any type). */
    const char *title_field;       /**< 1.1. A STRING or TEXT field that labels the cell. */
    const char *required_field;    /**< 1.1. A BOOL field that receives a document's `required: true`. */
    const char *max_length_field;  /**< 1.1. An INTEGER field limiting the value's length. */
    const char *placeholder_field; /**< 1.1. A STRING or TEXT field with example text. */
#endif
} fw_cell_type;

/* ------------------------------------------------------------------------- */
/* The pack                                                                  */
/* ------------------------------------------------------------------------- */

/**
 * A pack's descriptor, returned by `formwork_pack_v1`.
 * Lifetime: static, for the life of the process.
 */
typedef struct fw_pack {
    fw_version abi;                  /**< FW_ABI_VERSION_INIT: the header the pack was built with. First. */
    uint32_t struct_size;            /**< sizeof(fw_pack). */
    const char *id;                  /**< Pack identifier, reverse-DNS. Required. */
    const char *name;                /**< Display name. Required. */
    const char *version;             /**< The pack's own version, e.g. "1.2.0". Required. */
    const char *vendor;              /**< Optional (NULL). */
    const char *license;             /**< SPDX expression. Optional (NULL). */
    const char *description;         /**< Optional (NULL). */

    /**
     * Prepares the pack before its first instance is created. Reference
     * counted by the host: called once before first use, balanced by `deinit`
     * when the host is done; never called just to list or inspect a pack.
     * Returns FW_OK or an error (log why): the pack's cells are then unusable.
     * [host → pack, once per process before any `create`, never concurrently
     * with any other call into the pack; `host` lives for the process: keep it]
     * Optional (NULL).
     */
    fw_status (*init)(const fw_host *host);

    /**
     * Balances a successful `init`: release what `init` took.
     * [host → pack, at most once, after every instance was destroyed, never
     * concurrently with any other call into the pack; not called when `init`
     * failed, nor when the process ends abnormally] Optional (NULL).
     */
    void (*deinit)(void);

    const fw_cell_type *cell_types;  /**< The cell types (stride cell_types[0].struct_size). */
    uint32_t cell_type_count;        /**< Number of cell types, >= 1. */
    uint32_t reserved;               /**< Must be 0. */

#if FW_TARGET_ABI_MINOR >= 2
    /**
     * 1.2. Pack extensions: returns an interface the pack offers the host,
     * named by a versioned string id (FW_PACK_EXTENSION_*), or NULL when it
     * does not offer it. The mirror of `fw_host.get_extension`. It must be as
     * cheap and free of side effects as the entry: the host asks while it
     * lists the pack, before `init`. Optional (NULL: no extensions; default
     * when absent).
     * [host → pack, any thread, may be called before `init` and more than
     * once; `id` the host's, read during the call; the result the pack's:
     * static, valid and unchanged for the life of the process]
     */
    const void *(*get_extension)(const char *id);
#endif
} fw_pack;

#if FW_TARGET_ABI_MINOR >= 2
/**
 * 1.2. Pack extension "org.formwork.choices/1": choices the pack supplies at
 * render and submit time, for document fields that say
 * `choicesFrom: PACK_ID/SOURCE` (a picker's rows, a multi-select's options;
 * Formwork's documentation of forms, "Choices from a pack"). The host calls
 * `list` in its sandboxed cell host, with its usual deadline (`--timeout`),
 * keeps an answer for `cache_seconds`, and checks a submitted value against a
 * fresh answer.
 */
#define FW_PACK_EXTENSION_CHOICES "org.formwork.choices/1"

/**
 * 1.2. Receives one choice from `fw_choices_ext.list`: `value` (non-empty,
 * unique in the answer) and `label` (NULL: the value). Both are the pack's,
 * copied by the host during the call. The host refuses the whole answer when
 * it holds more than 10,000 choices, an empty or repeated value, or text that
 * is not UTF-8 (at most 64 KiB per string).
 * [pack → host, on the thread that called `list`, only during that call]
 */
typedef void (*fw_choice_sink)(void *ctx, const char *value, const char *label);

typedef struct fw_choices_ext {
    uint32_t struct_size;          /**< sizeof(fw_choices_ext). */
    uint32_t reserved;             /**< Must be 0. */
    const char *const *sources;    /**< `source_count` source names ([A-Za-z][A-Za-z0-9_.-]*, at most 100
                                        bytes, unique). Static. */
    uint32_t source_count;         /**< >= 1, at most 1000. */
    uint32_t cache_seconds;        /**< How long the host may reuse an answer for renders; 0: ask every time. */
    /**
     * Lists the choices of `source` as they are now: calls `emit(ctx, value,
     * label)` once per choice, in display order, then returns FW_OK; or
     * returns FW_ERROR (log why), and the field cannot be shown or submitted.
     * [host → pack, one call at a time per pack, any thread, after `init`;
     * `source` is one of `sources` and the host's, valid during the call;
     * `emit` and `ctx` the host's, valid during the call only]
     */
    fw_status (*list)(const char *source, fw_choice_sink emit, void *ctx);
} fw_choices_ext;
#endif

/** The entry point type: `formwork_pack_v1`. */
typedef const fw_pack *(*fw_pack_entry_fn)(void);

/**
 * 1.1. The entry point, declared here so that a definition in C++ gets C
 * linkage (it is inside `extern "C"`): a pack defines it with
 *
 *     FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
 *
 * [host → pack, any thread, may be called more than once: return the same
 * static descriptor each time, without side effects]
 * Define FW_NO_ENTRY_PROTOTYPE before including this header to leave it out
 * (a Swift pack exports it with @_cdecl instead).
 */
#ifndef FW_NO_ENTRY_PROTOTYPE
FW_EXPORT const fw_pack *formwork_pack_v1(void);
#endif

/* ------------------------------------------------------------------------- */
/* Layout pins (LP64). A change here is an ABI break.                        */
/* ------------------------------------------------------------------------- */
#if defined(__LP64__) || defined(_LP64)
#if defined(__cplusplus)
#define FW_STATIC_ASSERT static_assert
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define FW_STATIC_ASSERT _Static_assert
#else /* C99: a negative array size stops the build */
#define FW_STATIC_ASSERT_JOIN2(a, b) a##b
#define FW_STATIC_ASSERT_JOIN(a, b) FW_STATIC_ASSERT_JOIN2(a, b)
#define FW_STATIC_ASSERT(condition, message) \
    typedef char FW_STATIC_ASSERT_JOIN(fw_static_assert_, __LINE__)[(condition) ? 1 : -1]
#endif
FW_STATIC_ASSERT(sizeof(fw_version) == 12, "fw_version layout");
FW_STATIC_ASSERT(sizeof(fw_string_list) == 16, "fw_string_list layout");
FW_STATIC_ASSERT(sizeof(fw_value) == 24 && offsetof(fw_value, as) == 8, "fw_value layout");
FW_STATIC_ASSERT(sizeof(fw_choice) == 24 && offsetof(fw_choice, label) == 16, "fw_choice layout");
FW_STATIC_ASSERT(offsetof(fw_field, choices) == 40, "fw_field layout");
FW_STATIC_ASSERT(offsetof(fw_field, default_value) == 48, "fw_field layout");
FW_STATIC_ASSERT(offsetof(fw_field, minimum) == 72, "fw_field layout");
FW_STATIC_ASSERT(offsetof(fw_field, options_field) == 96, "fw_field layout");
#if FW_TARGET_ABI_MINOR >= 2
FW_STATIC_ASSERT(offsetof(fw_field, step) == 104 && sizeof(fw_field) == 112, "fw_field layout (1.2)");
#else
FW_STATIC_ASSERT(sizeof(fw_field) == 104, "fw_field layout");
#endif
FW_STATIC_ASSERT(offsetof(fw_text_traits, content_type) == 48, "fw_text_traits layout");
FW_STATIC_ASSERT(offsetof(fw_text_traits, minimum_field) == 72, "fw_text_traits layout");
FW_STATIC_ASSERT(sizeof(fw_text_traits) == 88, "fw_text_traits layout");
FW_STATIC_ASSERT(offsetof(fw_host, name) == 16 && sizeof(fw_host) == 56, "fw_host layout");
FW_STATIC_ASSERT(offsetof(fw_canvas, begin_group) == 8 && offsetof(fw_canvas, number) == 88, "fw_canvas layout");
FW_STATIC_ASSERT(sizeof(fw_canvas) == 104, "fw_canvas layout (1.1)");
FW_STATIC_ASSERT(sizeof(fw_pack_context) == 24, "fw_pack_context layout");
FW_STATIC_ASSERT(offsetof(fw_cell_type, fields) == 32, "fw_cell_type layout");
FW_STATIC_ASSERT(offsetof(fw_cell_type, create) == 64, "fw_cell_type layout");
FW_STATIC_ASSERT(offsetof(fw_cell_type, typed_convention) == 120, "fw_cell_type layout");
FW_STATIC_ASSERT(offsetof(fw_cell_type, model_size) == 128, "fw_cell_type layout");
#if FW_TARGET_ABI_MINOR >= 1
FW_STATIC_ASSERT(offsetof(fw_cell_type, value_field) == 144, "fw_cell_type layout (1.1)");
FW_STATIC_ASSERT(sizeof(fw_cell_type) == 184, "fw_cell_type layout (1.1)");
#else
FW_STATIC_ASSERT(sizeof(fw_cell_type) == 144, "fw_cell_type layout (1.0)");
#endif
FW_STATIC_ASSERT(offsetof(fw_pack, struct_size) == 12 && offsetof(fw_pack, id) == 16, "fw_pack layout");
#if FW_TARGET_ABI_MINOR >= 2
FW_STATIC_ASSERT(offsetof(fw_pack, init) == 64 && offsetof(fw_pack, get_extension) == 96, "fw_pack layout");
FW_STATIC_ASSERT(sizeof(fw_pack) == 104, "fw_pack layout (1.2)");
FW_STATIC_ASSERT(offsetof(fw_choices_ext, list) == 24 && sizeof(fw_choices_ext) == 32, "fw_choices_ext layout");
#else
FW_STATIC_ASSERT(offsetof(fw_pack, init) == 64 && sizeof(fw_pack) == 96, "fw_pack layout");
#endif
#endif

#ifdef __cplusplus
} /* extern "C" */

/*
 * 1.1. C++ helpers (C++11 and later; nothing here crosses the ABI).
 *
 * The FW_* flag constants are unnamed-enum values; mixing them with unsigned
 * integers (`on ? FW_CONTROL_DISABLED : 0u`) is an error under -Wextra
 * -Werror. `fw::flags::*` are the same values typed `uint32_t`.
 * C++17 has no designated initialisers and initialises a union through its
 * first member only: `fw::value_*` make default values of any type, and a
 * descriptor array can be filled in a function that `formwork_pack_v1`
 * calls once (Formwork's source tree has an example: Examples/Packs/ticket-cpp).
 */
namespace fw {
namespace flags {
constexpr uint32_t field_required = FW_FIELD_REQUIRED;
constexpr uint32_t field_has_minimum = FW_FIELD_HAS_MINIMUM;
constexpr uint32_t field_has_maximum = FW_FIELD_HAS_MAXIMUM;
constexpr uint32_t control_disabled = FW_CONTROL_DISABLED;
constexpr uint32_t control_required = FW_CONTROL_REQUIRED;
constexpr uint32_t control_multiline = FW_CONTROL_MULTILINE;
constexpr uint32_t cell_selectable = FW_CELL_SELECTABLE;
constexpr uint32_t cell_highlightable = FW_CELL_HIGHLIGHTABLE;
constexpr uint32_t cell_typed_configure = FW_CELL_TYPED_CONFIGURE;
constexpr uint32_t cell_thread_safe = FW_CELL_THREAD_SAFE;
#if FW_TARGET_ABI_MINOR >= 2
constexpr uint32_t field_has_step = FW_FIELD_HAS_STEP;
constexpr uint32_t field_exclusive_minimum = FW_FIELD_EXCLUSIVE_MINIMUM;
constexpr uint32_t field_exclusive_maximum = FW_FIELD_EXCLUSIVE_MAXIMUM;
constexpr uint32_t cell_typed_presence = FW_CELL_TYPED_PRESENCE;
#endif
} /* namespace flags */

inline fw_value value_none() { fw_value v = fw_value(); return v; }
inline fw_value value_string(const char *s, fw_field_type type = FW_FIELD_STRING) {
    fw_value v = fw_value(); v.type = type; v.as.string = s; return v;
}
inline fw_value value_bool(bool b) { fw_value v = fw_value(); v.type = FW_FIELD_BOOL; v.as.boolean = b; return v; }
inline fw_value value_integer(int64_t i) { fw_value v = fw_value(); v.type = FW_FIELD_INTEGER; v.as.integer = i; return v; }
inline fw_value value_number(double d, fw_field_type type = FW_FIELD_NUMBER) {
    fw_value v = fw_value(); v.type = type; v.as.number = d; return v;
}
inline fw_value value_list(const char *const *items, size_t count, fw_field_type type = FW_FIELD_STRING_LIST) {
    fw_value v = fw_value(); v.type = type; v.as.list.items = items; v.as.list.count = count; return v;
}
} /* namespace fw */
#endif
#endif /* FORMWORK_H */
