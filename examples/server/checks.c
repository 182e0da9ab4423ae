/* checks.c - what a request body may hold: known fields only, a preset or a shape, names without format characters. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "http.h"

/* Unicode's format characters (general category Cf, Unicode 15.1): bidi
 * controls, zero-width characters, the BOM and the like. They draw nothing
 * or reorder what follows, so a name holding one can display as another. */
static const uint32_t format_chars[][2] = {
    {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},     {0x6DD, 0x6DD},
    {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},     {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

static int is_format_char(uint32_t c)
{
    for (size_t i = 0; i < sizeof format_chars / sizeof format_chars[0]; i++)
        if (c >= format_chars[i][0] && c <= format_chars[i][1])
            return 1;
    return 0;
}

/* The byte offset of the first format character in s (valid UTF-8, as
 * jansson guarantees for every string it parsed), or -1; *cp gets it. */
static long find_format_char(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        uint32_t c = p[i];
        size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (i + n > len)
            return -1;
        if (n > 1) {
            c &= 0x3Fu >> (n - 1);
            for (size_t j = 1; j < n; j++)
                c = (c << 6) | (p[i + j] & 0x3Fu);
        }
        if (is_format_char(c)) {
            *cp = c;
            return (long)i;
        }
        i += n;
    }
    return -1;
}

/* The first key of obj (an object, or anything else: then nothing) that
 * is not in known, a NULL-terminated list. */
static const char *unknown_key(const json_t *obj, const char *const known[])
{
    const char *key;
    json_t *value;
    if (!json_is_object(obj))
        return NULL;
    json_object_foreach((json_t *)obj, key, value) {
        int found = 0;
        for (size_t i = 0; known[i] && !found; i++)
            found = strcmp(key, known[i]) == 0;
        if (!found)
            return key;
    }
    return NULL;
}

static struct reply unknown_field(const char *where, const char *key)
{
    struct reply r = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID, "unknown field %s%.40s",
                                 where, key);
    char path[64];
    snprintf(path, sizeof path, "%s%.40s", where, key);
    json_object_set_new(r.body, "field", json_string(path));
    return r;
}

int check_create_body(const json_t *body, struct reply *err)
{
    static const char *const top[] = {"game", "width", "height", "k", "gravity", "rules",
                                      "rated", "x", "o", "clock", "days_per_move", NULL};
    static const char *const clock[] = {"initial_s", "increment_s", NULL};
    static const char *const rules[] = {"misere", "early_draw", "ply_limit", NULL};
    static const char *const seat[] = {"name", "kind", "budget", NULL};
    static const char *const shape[] = {"width", "height", "k", "gravity", NULL};
    const char *key;
    if ((key = unknown_key(body, top))) {
        *err = unknown_field("", key);
        return -1;
    }
    if ((key = unknown_key(json_object_get(body, "rules"), rules))) {
        *err = unknown_field("rules.", key);
        return -1;
    }
    if ((key = unknown_key(json_object_get(body, "clock"), clock))) {
        *err = unknown_field("clock.", key);
        return -1;
    }
    json_t *preset = json_object_get(body, "game");
    for (size_t i = 0; preset && !json_is_null(preset) && shape[i]; i++) {
        json_t *v = json_object_get(body, shape[i]);
        if (v && !json_is_null(v)) {
            *err = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID,
                               "%s cannot be combined with a preset (\"game\"): give one or "
                               "the other", shape[i]);
            json_object_set_new(err->body, "field", json_string(shape[i]));
            return -1;
        }
    }
    for (int s = 0; s < 2; s++) {
        const char *mark = s == 0 ? "x" : "o";
        json_t *p = json_object_get(body, mark);
        if ((key = unknown_key(p, seat))) {
            *err = unknown_field(s == 0 ? "x." : "o.", key);
            return -1;
        }
        json_t *name = json_object_get(p, "name");
        uint32_t c;
        long at = json_is_string(name)
                      ? find_format_char(json_string_value(name), json_string_length(name), &c)
                      : -1;
        if (at >= 0) {
            *err = ttt_error_reply(422, TTT_E_NAME,
                                   "%s.name holds U+%04X at byte %ld, a Unicode format "
                                   "character (bidi control, zero-width or BOM)",
                                   mark, (unsigned)c, at);
            json_object_set_new(err->body, "field", json_string(s == 0 ? "x.name" : "o.name"));
            return -1;
        }
    }
    return 0;
}

int check_move_body(const json_t *body, struct reply *err)
{
    static const char *const move[] = {"ply", "cell", "column", NULL};
    const char *key = unknown_key(body, move);
    if (key) {
        *err = unknown_field("", key);
        return -1;
    }
    return 0;
}
