/* RatingCells exports only formwork_pack_v1 (declared in formwork.h). */
