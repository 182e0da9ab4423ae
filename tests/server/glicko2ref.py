"""glicko2ref.py - an independent Glicko-2 (Glickman's paper, steps 1-8) for the tests to compute expected ratings with; one game is one rating period, as the server rates."""
import math

SCALE = 173.7178
INITIAL = (1500.0, 500.0, 0.09)   # rating, deviation, volatility (lichess's)
TAU = 0.75
MIN_RD, MAX_RD = 45.0, 500.0
PROVISIONAL_RD = 110.0


def update(player, games, tau=TAU):
    """player (r, rd, sigma) after one period of games [((r, rd, sigma), score)]."""
    r, rd, sigma = player
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    if not games:
        return (r, math.sqrt(phi ** 2 + sigma ** 2) * SCALE, sigma)

    def g(p):
        return 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)
    terms = []
    for (rj, rdj, _), s in games:
        muj, phij = (rj - 1500) / SCALE, rdj / SCALE
        e = 1 / (1 + math.exp(-g(phij) * (mu - muj)))
        terms.append((g(phij), e, s))
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in terms)
    total = sum(gj * (s - e) for gj, e, s in terms)
    delta = v * total
    a = math.log(sigma ** 2)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) \
            - (x - a) / tau ** 2
    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = big_c, fc
    sigma2 = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * total
    return (SCALE * mu2 + 1500, SCALE * phi2, sigma2)


def game(a, b, score_a):
    """Both players after one game between them (score_a: 1, 0.5 or 0)."""
    a2 = update(a, [(b, score_a)])
    b2 = update(b, [(a, 1 - score_a)])
    clamp = lambda p: (p[0], min(max(p[1], MIN_RD), MAX_RD), p[2])  # noqa: E731
    return clamp(a2), clamp(b2)


def replay(results):
    """Ratings after results [(x, o, score_x)] in order: {name: (r, rd, sigma)}."""
    table = {}
    for x, o, s in results:
        px, po = table.get(x, INITIAL), table.get(o, INITIAL)
        if x == o:
            table.setdefault(x, INITIAL)
            continue
        table[x], table[o] = game(px, po, s)
    return table


def shown(p):
    """As the API shows a rating: {"rating", "deviation"} rounded."""
    return {"rating": round(p[0]), "deviation": round(p[1])}
