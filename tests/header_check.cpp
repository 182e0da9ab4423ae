// header_check.cpp - ttt.h compiles alone as C++ (extern "C" linkage) and matches the linked library.
#include "ttt.h"

namespace {

void on_event(void *user, const ttt_event *event)
{
    static_cast<void>(user);
    static_cast<void>(event);
}

} // namespace

int main()
{
    ttt_listener listener = on_event;
    ttt_game *game = nullptr;
    int8_t cells[TTT_MIN_SIZE * TTT_MIN_SIZE];
    size_t len = 0;
    int failures = 0;

    if (ttt_version() != TTT_VERSION_NUMBER) {
        failures++;
    }
    if (ttt_game_new(TTT_MIN_SIZE, 0, &game) != TTT_OK) {
        return 1;
    }
    if (ttt_set_listener(game, listener, nullptr) != TTT_OK ||
        ttt_play(game, TTT_X, 1, 1, nullptr) != TTT_OK ||
        ttt_board(game, cells, sizeof cells, &len) != TTT_OK || len != 9 ||
        cells[4] != TTT_X || ttt_to_move(game) != TTT_O) {
        failures++;
    }
    ttt_game_free(game);
    return failures == 0 ? 0 : 1;
}
