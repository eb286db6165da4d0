/* Apertura plugin interface, version 2: a plain C ABI.
 *
 * A plugin is a shared library (a CMake MODULE) that exports one function,
 *
 *   APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void);
 *
 * returning a pointer to a static description of what it provides: regularizers (terms of the RML
 * objective), optimizers and visibility readers (new file formats). Only C types cross the boundary
 * (double*, size_t, const char*), so a plugin does not depend on Apertura's C++ ABI, compiler or
 * standard library, and may be written in C. Errors are returned as status codes with a message
 * written into a caller-provided buffer: a plugin must never let a C++ exception escape one of
 * these functions.
 *
 * Versioning: the first member of every plugin description is `abi_version`. Apertura reads it
 * before anything else and refuses a plugin whose version it does not support, so later versions
 * may change everything after it. Version 2 is described here; it added the descriptor's size and
 * a magic number after the version (a damaged or foreign table is refused before Apertura follows
 * any of its pointers). The structures unchanged since version 1 keep their V1 names.
 *
 * This header is part of core (no Qt, no C++): plugins include it and nothing else from Apertura.
 * See docs/plugins.md and plugins/wavelet, plugins/csv_reader for complete examples.
 */
#ifndef APERTURA_PLUGIN_API_H
#define APERTURA_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define APERTURA_PLUGIN_ABI_VERSION 2
/* "APERTURA" in ASCII. */
#define APERTURA_PLUGIN_MAGIC 0x4150455254555241ull
#define APERTURA_PLUGIN_ENTRY_SYMBOL "apertura_plugin_entry"

#if defined(_WIN32)
#define APERTURA_PLUGIN_EXPORT __declspec(dllexport)
#else
#define APERTURA_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes of the plugin functions. */
#define APERTURA_OK 0
#define APERTURA_ERROR 1

/* One numeric parameter of a regularizer, as project files, the CLI and the GUI show it. */
typedef struct AperturaParameterV1 {
  const char* name; /* key in the project file's "parameters" object */
  double default_value;
  double min_value; /* inclusive range; Apertura refuses values outside it */
  double max_value;
  const char* description; /* one line, with units */
} AperturaParameterV1;

/* A regularizer R(I) of an nx x ny image (row-major, x fastest: pixel (x, y) at y * nx + x).
 * The objective multiplies it by the user's lambda. Handles are used from one thread at a time. */
typedef struct AperturaRegularizerV1 {
  const char* name; /* type name in project files, e.g. "wavelet"; must not clash with built-ins */
  const char* description;
  const AperturaParameterV1* parameters;
  size_t num_parameters;

  /* Creates an instance; `params` holds one value per entry of `parameters`, in that order
   * (defaults filled in, ranges checked). Returns NULL and writes `error` on failure. */
  void* (*create)(int nx, int ny, const double* params, char* error, size_t error_size);
  void (*destroy)(void* handle);

  /* *value = R(image); when `gradient` is not NULL, ADDS scale * grad R(image) to it. A
   * non-smooth term evaluates a smoothed form here (for gradient-based optimizers). */
  int (*evaluate)(void* handle, const double* image, double* gradient, double scale, double* value,
                  char* error, size_t error_size);

  /* Optional (NULL when absent). out = argmin_x step * R(x) + 1/2 ||x - v||^2, with the exact
   * (unsmoothed) R. A regularizer with a prox is handed to proximal solvers (FISTA, SDMM) through
   * it. */
  int (*prox)(void* handle, const double* v, double step, double* out, char* error,
              size_t error_size);
  /* Optional: the exact value of R as the prox sees it (NULL: evaluate() is used). */
  int (*prox_value)(void* handle, const double* image, double* value, char* error,
                    size_t error_size);
  /* Optional: per-pixel weights (nx * ny values, usually 0 outside a mask and 1 inside; NULL
   * removes the mask). NULL function: the term does not support masks. */
  int (*set_mask)(void* handle, const double* mask, char* error, size_t error_size);
  /* Optional: 1 when evaluate() is the term itself and differentiable. NULL: smooth exactly when
   * the term has no prox. */
  int (*is_smooth)(void* handle);
} AperturaRegularizerV1;

/* A whole data set, as a reader hands it over: `rows` rows of `channels` samples each, row-major
 * (sample (r, c) at r * channels + c). The arrays belong to the reader's handle and stay valid
 * until close(). */
typedef struct AperturaVisibilityTableV1 {
  size_t rows;
  size_t channels;
  /* 3 per row, metres, with the sign of a Measurement Set's UVW column (antenna 2 minus antenna 1;
   * Apertura negates it into its imaging convention exactly as its built-in readers do). */
  const double* uvw_m;
  const double* frequency_hz; /* per sample (rows * channels) */
  const double* re;           /* per sample, Jy */
  const double* im;           /* per sample, Jy */
  const double* weight;       /* per sample, 1/sigma^2 in 1/Jy^2; 0 = flagged */
  int has_phase_centre;       /* 1 when ra_rad/dec_rad are known */
  double ra_rad;
  double dec_rad;
  const char* telescope; /* may be NULL */
} AperturaVisibilityTableV1;

/* A reader of a file format. */
typedef struct AperturaReaderV1 {
  const char* name; /* format name shown to users, e.g. "CSV" */
  const char* description;
  const char* file_patterns; /* for file dialogs, space separated, e.g. "*.csv *.txt" */
  /* 1 when the file at `path` is in this format (a cheap look at its start), 0 otherwise. */
  int (*probe)(const char* path);
  /* Reads the file; fills `table` and returns a handle owning its arrays, or NULL with `error`
   * (which should name the line / field and what was expected). */
  void* (*open)(const char* path, AperturaVisibilityTableV1* table, char* error, size_t error_size);
  void (*close)(void* handle);
} AperturaReaderV1;

/* The objective an optimizer minimises, provided by Apertura: chi2 + sum_k lambda_k R_k over the
 * (possibly reparametrised) image. */
typedef struct AperturaObjectiveV1 {
  size_t dimension;
  void* context; /* pass back unchanged */
  /* *value = f(x); when `gradient` is not NULL, OVERWRITES it with grad f(x). +infinity means
   * outside the domain (shorten the step). Returns APERTURA_ERROR when the run is being stopped
   * (cancelled, or an error Apertura will report): the optimizer must then return promptly. */
  int (*evaluate)(void* context, const double* x, double* value, double* gradient);
  /* Call once after every iteration with its accepted point. Returns 1 when the optimizer must
   * stop now (Apertura's stop criteria: iterations, tolerances, time limit, cancellation), else 0.
   * It also publishes progress (metrics, live model images) and honours pause. */
  int (*iteration)(void* context, const double* x, double value, double gradient_norm, double step,
                   int evaluations);
  int positivity; /* 1: the optimizer must keep every x_i >= 0 (projection) */
} AperturaObjectiveV1;

/* An optimizer, chosen by optimizer.method in project files. */
typedef struct AperturaOptimizerV1 {
  const char* name; /* must not clash with the built-in methods (lbfgs, cg-*, fista, sdmm) */
  const char* description;
  const AperturaParameterV1* parameters; /* defaults are used (no project key yet) */
  size_t num_parameters;
  /* Minimises from x (in: start; out: result). Returns APERTURA_OK, also when iteration() or
   * evaluate() asked it to stop; APERTURA_ERROR with `error` on failure. */
  int (*minimize)(const AperturaObjectiveV1* objective, const double* params, double* x,
                  char* error, size_t error_size);
} AperturaOptimizerV1;

/* How Apertura makes a regularizer's lambda dimensionless in the normalised objective (schema 2,
 * docs/regularization.md): the term is weighted by beam_area^beam_power / (N sigma^flux_power),
 * with N the number of visibilities, sigma the natural-weighted image noise (Jy/beam) and
 * beam_area the clean beam's area in pixels. flux_power is the term's degree in the image: 1 for
 * norms (L1, TV, an L1 of wavelet coefficients), 2 for quadratic terms (TSV, L2). beam_power makes
 * lambda mean the same at any cell size for a fixed field of view; the built-in terms use L1
 * {1, 0}, TV {1, 0.5}, L2 {2, 1}, TSV {2, 2}, Laplacian {2, 3}. */
typedef struct AperturaTermScaleV1 {
  int flux_power;    /* 1 or 2 */
  double beam_power; /* 0 to 4 */
} AperturaTermScaleV1;

/* What apertura_plugin_entry() returns; a static object that lives as long as the library. */
typedef struct AperturaPluginV2 {
  uint32_t abi_version;     /* APERTURA_PLUGIN_ABI_VERSION: always the first member */
  uint32_t descriptor_size; /* sizeof(AperturaPluginV2) */
  uint64_t magic;           /* APERTURA_PLUGIN_MAGIC */
  const char* name;         /* unique among plugins, e.g. "wavelet" */
  const char* version;      /* the plugin's own version, e.g. "1.0.0" */
  const char* description;
  const AperturaRegularizerV1* regularizers;
  size_t num_regularizers;
  const AperturaReaderV1* readers;
  size_t num_readers;
  const AperturaOptimizerV1* optimizers;
  size_t num_optimizers;
  /* NULL, or one per regularizer in the order of `regularizers`: how each is normalised. NULL
   * gives every regularizer flux_power 1 and beam_power 0, as L1. Appended to version 2 after
   * its first release: a description that ends before this member (descriptor_size
   * APERTURA_PLUGIN_V2_BASE_SIZE) is still accepted, and has none. */
  const AperturaTermScaleV1* regularizer_scales;
} AperturaPluginV2;

/* The size of a version 2 description built before regularizer_scales was appended. */
#define APERTURA_PLUGIN_V2_BASE_SIZE ((uint32_t)offsetof(AperturaPluginV2, regularizer_scales))

/* The first three members of an AperturaPluginV2 initialiser. */
#define APERTURA_PLUGIN_HEADER \
  APERTURA_PLUGIN_ABI_VERSION, (uint32_t)sizeof(AperturaPluginV2), APERTURA_PLUGIN_MAGIC

typedef const AperturaPluginV2* (*AperturaPluginEntryFn)(void);

#ifdef __cplusplus
}
#endif

#endif /* APERTURA_PLUGIN_API_H */
