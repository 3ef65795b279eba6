/* A minimal Breakthrough engine for plateau in C: it speaks UCI and UGI and plays a random legal move.
 *
 * A student's starting point (docs/write-an-engine.md): replace choose() with your own search.
 *
 *   gcc -O2 -o random_engine examples/engines/random_engine.c
 *   plateau match "breakthrough(rows=6,columns=5)" --player "uci(cmd=./random_engine)" \
 *       --player "alphabeta(depth=2)" --games 10 --movetime 100ms
 *
 * The arena names the game with `setoption name UCI_Variant value breakthrough(rows=6,columns=5)` (UCI) or
 * `setoption name Game value ...` (UGI). Rules (plateau's): White 'P' moves first from the bottom rows, one square
 * straight or diagonally forward onto an empty square, captures diagonally forward only. Squares a1 (bottom left) to
 * h8; moves a2a3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXSQ 64
static int rows = 8, cols = 8, piece_rows = 2, forced_captures = 0;
static char cell[MAXSQ]; /* cell[r * cols + c], row 0 = rank 1: 'P', 'p' or '.' */
static int white_to_move = 1;

typedef struct { int from, to, capture; } Move;

static void start(void) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            cell[r * cols + c] = r < piece_rows ? 'P' : r >= rows - piece_rows ? 'p' : '.';
    white_to_move = 1;
}

/* The legal moves of the side to move; returns their number. */
static int gen(Move *out) {
    char me = white_to_move ? 'P' : 'p', them = white_to_move ? 'p' : 'P';
    int step = white_to_move ? 1 : -1, n = 0, captures = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if (cell[r * cols + c] != me || r + step < 0 || r + step >= rows) continue;
            for (int dc = -1; dc <= 1; dc++) {
                int nc = c + dc;
                if (nc < 0 || nc >= cols) continue;
                char t = cell[(r + step) * cols + nc];
                if (t == '.' || (t == them && dc != 0)) {
                    Move m = {r * cols + c, (r + step) * cols + nc, t == them};
                    out[n++] = m;
                    captures += m.capture;
                }
            }
        }
    if (forced_captures && captures) { /* keep the captures only */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (out[i].capture) out[k++] = out[i];
        n = k;
    }
    return n;
}

static void move_text(Move m, char *buf) {
    snprintf(buf, 32, "%c%d%c%d", 'a' + m.from % cols, m.from / cols + 1, 'a' + m.to % cols, m.to / cols + 1);
}

static int play_text(const char *text) {
    Move ms[3 * MAXSQ];
    int n = gen(ms);
    char buf[32];
    for (int i = 0; i < n; i++) {
        move_text(ms[i], buf);
        if (strcmp(buf, text) == 0) {
            cell[ms[i].to] = cell[ms[i].from];
            cell[ms[i].from] = '.';
            white_to_move = !white_to_move;
            return 1;
        }
    }
    fprintf(stderr, "illegal move %s\n", text);
    return 0;
}

/* `pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w`: ranks from the top, digits for runs of empty squares. */
static void set_fen(const char *fen) {
    int r = rows - 1, c = 0;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') { r--; c = 0; }
        else if (*p >= '0' && *p <= '9') {
            int k = (int)strtol(p, (char **)&p, 10);
            p--;
            while (k-- > 0 && c < cols) cell[r * cols + c++] = '.';
        } else if (c < cols && r >= 0) cell[r * cols + c++] = *p;
    }
    while (*p == ' ') p++;
    white_to_move = *p != 'b';
}

/* `breakthrough(rows=6,columns=5)` */
static void set_game(const char *text) {
    rows = 8; cols = 8; piece_rows = 2; forced_captures = 0;
    const char *p = strchr(text, '(');
    if (strncmp(text, "breakthrough", 12) != 0 && strncmp(text, "bt", 2) != 0)
        fprintf(stderr, "this engine plays breakthrough only, not %s\n", text);
    while (p && *p) {
        p++;
        if (!strncmp(p, "rows=", 5)) rows = atoi(p + 5);
        else if (!strncmp(p, "columns=", 8)) cols = atoi(p + 8);
        else if (!strncmp(p, "piece_rows=", 11)) piece_rows = atoi(p + 11);
        else if (!strncmp(p, "forced_captures=", 16)) forced_captures = !strncmp(p + 16, "true", 4);
        p = strchr(p, ',');
    }
    if (rows * cols > MAXSQ) rows = cols = 8;
    start();
}

/* Your search goes here: return one of the n moves. */
static Move choose(Move *ms, int n) { return ms[rand() % n]; }

int main(void) {
    char line[8192];
    srand((unsigned)time(NULL));
    start();
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strcmp(line, "uci") || !strcmp(line, "ugi")) {
            printf("id name random_engine.c\nid author a student\n");
            printf(line[1] == 'c' ? "option name UCI_Variant type combo default breakthrough var breakthrough\n"
                                  : "option name Game type string default breakthrough\n");
            printf("%sok\n", line);
        } else if (!strncmp(line, "setoption name UCI_Variant value ", 33)) set_game(line + 33);
        else if (!strncmp(line, "setoption name Game value ", 26)) set_game(line + 26);
        else if (!strcmp(line, "isready")) printf("readyok\n");
        else if (!strcmp(line, "ucinewgame") || !strcmp(line, "uginewgame")) start();
        else if (!strncmp(line, "position ", 9)) {
            char *rest = line + 9, *moves = strstr(line, " moves ");
            if (moves) *moves = 0;
            if (!strncmp(rest, "fen ", 4)) { start(); set_fen(rest + 4); }
            else start();
            for (char *m = moves ? strtok(moves + 7, " ") : NULL; m; m = strtok(NULL, " "))
                if (!play_text(m)) break;
        } else if (!strncmp(line, "go", 2)) {
            Move ms[3 * MAXSQ];
            int n = gen(ms);
            char buf[32] = "0000";
            if (n > 0) move_text(choose(ms, n), buf);
            printf("bestmove %s\n", buf);
        } else if (!strcmp(line, "quit")) break;
        fflush(stdout);
    }
    return 0;
}
