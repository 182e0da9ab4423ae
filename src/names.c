/* names.c - the players' names: validation (UTF-8, no control characters, TTT_NAME_MAX bytes) and their storage in the game. */
#include <string.h>

#include "internal.h"

/* A byte that may only follow the lead byte of a UTF-8 sequence. */
static int is_continuation(unsigned char byte)
{
    return (byte & 0xC0) == 0x80;
}

int ttt__check_name(const char *text, size_t len, size_t *bad)
{
    const unsigned char *bytes = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        if (i >= TTT_NAME_MAX) {
            *bad = TTT_NAME_MAX;
            return TTT_E_NAME;
        }
        unsigned lead = bytes[i];
        size_t extra;
        uint32_t code;
        if (lead < 0x80) {
            if (lead < 0x20 || lead == 0x7F) {
                *bad = i;
                return TTT_E_NAME;
            }
            i++;
            continue;
        }
        /* C0, C1 and F5..FF never start a shortest-form sequence. */
        if (lead >= 0xC2 && lead <= 0xDF) {
            extra = 1;
            code = lead & 0x1F;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            extra = 2;
            code = lead & 0x0F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            extra = 3;
            code = lead & 0x07;
        } else {
            *bad = i;
            return TTT_E_NAME;
        }
        for (size_t j = 1; j <= extra; j++) {
            if (i + j >= len || i + j >= TTT_NAME_MAX ||
                !is_continuation(bytes[i + j])) {
                *bad = i + j < len && i + j >= TTT_NAME_MAX ? TTT_NAME_MAX
                                                            : i + j;
                return TTT_E_NAME;
            }
            code = (code << 6) | (bytes[i + j] & 0x3F);
        }
        /* Overlong forms, surrogates and code points past U+10FFFF are
         * refused at their second byte, where they first go wrong. */
        if ((extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000) ||
            code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            *bad = i + 1;
            return TTT_E_NAME;
        }
        /* The C1 controls, U+0080..U+009F. */
        if (code <= 0x9F) {
            *bad = i;
            return TTT_E_NAME;
        }
        i += extra + 1;
    }
    return TTT_OK;
}

int ttt_game_set_name(ttt_game *game, int mark, const char *name, size_t len)
{
    if (!game || (!name && len > 0))
        return TTT_E_INVALID;
    if (mark != TTT_X && mark != TTT_O)
        return TTT_E_MARK;
    size_t bad;
    if (ttt__check_name(name, len, &bad) != TTT_OK)
        return TTT_E_NAME;
    /* The block is allocated without the lock held; if another thread
     * installed one meanwhile, ours goes back. Removing a name needs none.
     * A name is a change like a move: it waits for a listener call on
     * another thread, and is refused from inside the game's own. */
    ttt__names *fresh = NULL;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    while (!game->names && len > 0) {
        if (fresh) {
            game->names = fresh;
            fresh = NULL;
            break;
        }
        ttt__unlock(game);
        fresh = game->alloc.alloc(game->alloc.user, sizeof *fresh);
        if (!fresh)
            return TTT_E_NOMEM;
        memset(fresh, 0, sizeof *fresh);
        status = lock_for_change(game);
        if (status != TTT_OK) {
            game->alloc.dealloc(game->alloc.user, fresh);
            return status;
        }
    }
    if (game->names) {
        int side = ttt__name_index(mark);
        if (len > 0)
            memcpy(game->names->text[side], name, len);
        game->names->len[side] = (uint8_t)len;
    }
    ttt__unlock(game);
    if (fresh)
        game->alloc.dealloc(game->alloc.user, fresh);
    return TTT_OK;
}

int ttt_game_get_name(const ttt_game *game, int mark, char *buf,
                      size_t capacity, size_t *len)
{
    if (!game || !len || (!buf && capacity > 0))
        return TTT_E_INVALID;
    if (mark != TTT_X && mark != TTT_O)
        return TTT_E_MARK;
    int side = ttt__name_index(mark);
    ttt__lock(game);
    size_t name_len = game->names ? game->names->len[side] : 0;
    if (capacity < name_len + 1) {
        ttt__unlock(game);
        *len = name_len;
        return TTT_E_BUFFER;
    }
    if (name_len > 0)
        memcpy(buf, game->names->text[side], name_len);
    buf[name_len] = '\0';
    ttt__unlock(game);
    *len = name_len;
    return TTT_OK;
}

