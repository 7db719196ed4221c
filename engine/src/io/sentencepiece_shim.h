#pragma once
// The C interface of libattnscope_sentencepiece.so, a small library that wraps Debian's
// libsentencepiece. The engine loads it with dlmopen() into a link namespace of its own
// (subword_model.cpp): libsentencepiece carries and exports its own copy of protobuf 3.14, and
// libtorch needs the system's protobuf 3.21, so in one namespace each calls the other's
// functions and the process crashes when it starts. Across the boundary go only plain bytes:
// the two sides have separate C and C++ runtimes, so nothing allocated on one side is freed on
// the other, and no exception crosses it (every function catches all of them).
#include <cstddef>

extern "C" {

/// Receives bytes that the library hands back (a model, a piece, a message); they are valid only
/// during the call. Must not throw.
typedef void (*attnscope_spm_sink)(void* context, const char* bytes, size_t size);

/// Learns a model from `count` sentences; `options` holds `option_count` key/value pairs of
/// SentencePiece's trainer flags. Returns 0 and gives the serialized model to `out`, or returns
/// 1 and gives the reason.
int attnscope_spm_learn(const char* const* sentences, const size_t* sizes, size_t count,
                        const char* const* options, size_t option_count, attnscope_spm_sink out,
                        void* context);

/// A model read from its serialized bytes, or null with the reason given to `error`.
void* attnscope_spm_load(const char* bytes, size_t size, attnscope_spm_sink error, void* context);
void attnscope_spm_release(void* model);

/// The number of pieces, and piece `id`'s text (given to `out`; returns 1 for a bad id).
int attnscope_spm_piece_count(const void* model);
int attnscope_spm_piece(const void* model, int id, attnscope_spm_sink out, void* context);
/// 1 when piece `id` is the model's unknown piece.
int attnscope_spm_is_unknown(const void* model, int id);

/// Gives each piece of `text` to `piece` in order; returns 1 and gives the reason to `error`
/// when SentencePiece fails.
int attnscope_spm_encode(const void* model, const char* text, size_t size, attnscope_spm_sink piece,
                         attnscope_spm_sink error, void* context);
/// The text of `count` pieces, given to `out`; returns 1 and gives the reason on failure.
int attnscope_spm_decode(const void* model, const char* const* pieces, const size_t* sizes,
                         size_t count, attnscope_spm_sink out, void* context);
}
