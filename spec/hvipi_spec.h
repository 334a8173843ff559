/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* hvipi spec: everything the contracts in src/ refer to. */
#ifndef HVIPI_SPEC_H
#define HVIPI_SPEC_H

#include "hvipi_bits.h"
#include "hvipi_lemmas.h"
#include "hvipi_targets.h"
#include "hvipi_receiver.h"
#include "hvipi_select.h"
#include "hvipi_flush.h"
#include "hvipi_path.h"

/*@
  // Decoding what ctl_make built gives the fields back, reserved bits 0.
  lemma ctl_make_decodes:
    \forall integer code, fast, varhdr;
      0 <= code < 65536 && 0 <= fast <= 1 && 0 <= varhdr < 1024 ==>
        ctl_is(ctl_make(code, fast, varhdr), code, fast, varhdr);

  lemma ctl_make_u64:
    \forall integer code, fast, varhdr;
      0 <= code < 65536 && 0 <= fast <= 1 && 0 <= varhdr < 1024 ==>
        0 <= ctl_make(code, fast, varhdr) < 134217728;
*/

#endif /* HVIPI_SPEC_H */
