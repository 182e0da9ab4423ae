"""test_browser.py - the browser client in headless chromium: two players, a spectator, a reload, names as text; a phone's width, failed requests, secrets after the end; two accounts met in the lobby, rated, on the leaderboard."""
import shutil

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from serverproc import Server

WAIT = 15


def browser(profile):
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--window-size=1000,900"):
        options.add_argument(arg)
    options.add_argument("--user-data-dir=" + str(profile))
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    return driver


@pytest.fixture
def browsers(tmp_path):
    drivers = []
    try:
        for i in range(3):
            drivers.append(browser(tmp_path / f"profile{i}"))
        yield drivers
    finally:
        for d in drivers:
            d.quit()


def wait_text(driver, element_id, text):
    WebDriverWait(driver, WAIT).until(EC.text_to_be_present_in_element((By.ID, element_id), text))


def cell_text(driver, cell):
    return driver.execute_script(
        "const b = document.getElementById(arguments[0]); return b ? b.textContent : null;",
        "cell-" + cell)


def click_cell(driver, cell):
    """Clicks the cell once it is playable (the board is redrawn on every
    event, so the button is looked up afresh each time)."""
    def playable_then_click(d):
        try:
            b = d.find_element(By.ID, "cell-" + cell)
            if b.get_attribute("aria-disabled") != "false":
                return False
            b.click()
            return True
        except StaleElementReferenceException:
            return False

    WebDriverWait(driver, WAIT).until(playable_then_click)
    WebDriverWait(driver, WAIT).until(lambda d: cell_text(d, cell) in ("X", "O"))


def test_two_players_and_a_spectator(server, browsers):
    ana, bo, watcher = browsers
    ana.get(server.url + "/")
    ana.find_element(By.ID, "name").send_keys("<b>x</b>")
    Select(ana.find_element(By.ID, "opponent")).select_by_value("human")
    ana.find_element(By.ID, "create-button").click()
    WebDriverWait(ana, WAIT).until(EC.visibility_of_element_located((By.ID, "invite")))
    invite = ana.find_element(By.ID, "invite").get_attribute("value")
    watch = ana.find_element(By.ID, "watch-link").get_attribute("value")
    assert "seat=o" in invite and "seat" not in watch

    # The name is shown as text: the page holds the characters, no <b> element.
    name = ana.find_element(By.ID, "name-x")
    assert name.text == "<b>x</b>"
    assert name.find_elements(By.TAG_NAME, "b") == []

    bo.get(invite)
    wait_text(bo, "status", "to move")
    watcher.get(watch)
    wait_text(watcher, "status", "to move")
    assert watcher.find_element(By.ID, "name-x").text == "<b>x</b>"
    assert watcher.execute_script(
        "return document.getElementById('cell-a1').getAttribute('aria-disabled')") == "true"

    click_cell(ana, "a1")
    wait_text(watcher, "status", "(O) to move")
    click_cell(bo, "a2")
    # A reload resumes the game where it was, with the seat kept in the link.
    bo.refresh()
    wait_text(bo, "status", "(X) to move")
    assert cell_text(bo, "a2") == "O" and cell_text(bo, "a1") == "X"
    click_cell(ana, "b1")
    wait_text(bo, "status", "your move")
    # Bo plays with the keyboard: focus a2, arrow right to b2, Enter.
    WebDriverWait(bo, WAIT).until(lambda d: cell_text(d, "b1") == "X")
    bo.execute_script("document.getElementById('cell-a2').focus()")
    bo.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    WebDriverWait(bo, WAIT).until(
        lambda d: d.switch_to.active_element.get_attribute("id") == "cell-b2")
    bo.switch_to.active_element.send_keys(Keys.ENTER)
    wait_text(ana, "status", "your move")
    click_cell(ana, "c1")

    for d in (ana, bo, watcher):
        wait_text(d, "status", "won by a line")
    status = watcher.find_element(By.ID, "status").text
    assert status.startswith("<b>x</b> (X) won")
    wins = [b.get_attribute("id") for b in watcher.find_elements(By.CSS_SELECTOR, "#board .win")]
    assert sorted(wins) == ["cell-a1", "cell-b1", "cell-c1"]
    assert watcher.find_elements(By.CSS_SELECTOR, "#board .last")[0].get_attribute("id") == "cell-c1"


@pytest.fixture
def phone(tmp_path):
    """A browser 375 px wide, a phone's viewport."""
    driver = browser(tmp_path / "phone")
    driver.set_window_size(375, 800)
    try:
        yield driver
    finally:
        driver.quit()


def seat_link(server, game, seat):
    return f"{server.url}/#g={game['id']}&seat={seat}&t={game['tokens'][seat]}"


def fits(driver):
    return driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")


def test_the_page_fits_a_phone_and_names_its_game(server, phone):
    phone.get(server.url + "/")
    width, inner = fits(phone)
    assert inner <= 400 and width <= inner, (width, inner)
    with httpx.Client(base_url=server.url, timeout=10.0) as c:
        for body, title, cells in [
                ({"game": "tictactoe"}, "Tic-tac-toe", 9),
                ({"game": "connect4"}, "Connect Four", 42),
                ({"width": 19, "height": 19, "k": 5}, "19x19, 5 in a row", 361)]:
            g = c.post("/api/games", json={**body, "x": {"name": "Ana"},
                                           "o": {"name": "Bo"}}).json()
            phone.get(seat_link(server, g, "x"))
            phone.refresh()  # a new hash alone does not reload the page
            wait_text(phone, "status", "your move")
            assert len(phone.find_elements(By.CSS_SELECTOR, "#board button")) == cells
            width, inner = fits(phone)
            assert width <= inner, (title, width, inner)
            assert phone.find_element(By.ID, "home").text == title
            board = phone.find_element(By.ID, "board").rect
            assert board["x"] >= 0 and board["x"] + board["width"] <= inner, (title, board)
            if title == "Connect Four":
                # Discs, not letters: a click in column d drops a red disc to d6.
                click = phone.find_element(By.ID, "cell-d1")
                click.click()
                WebDriverWait(phone, WAIT).until(
                    lambda d: d.find_elements(By.CSS_SELECTOR, "#cell-d6 .disc.x"))
                assert cell_text(phone, "d6") == ""
                assert phone.find_element(By.ID, "cell-d6").get_attribute(
                    "aria-label") == "d6 x"


def test_a_failed_request_shows_a_message_and_a_retry(tmp_path, phone):
    srv = Server(tmp_path / "games.db")
    srv.start()
    try:
        g = httpx.post(srv.url + "/api/games", json={"game": "tictactoe"}, timeout=10).json()
        phone.get(seat_link(srv, g, "x"))
        wait_text(phone, "status", "your move")
        srv.kill()
        phone.find_element(By.ID, "cell-b2").click()
        WebDriverWait(phone, WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#game-error button.retry"))
        assert "did not answer" in phone.find_element(By.ID, "game-error").text
        assert cell_text(phone, "b2") == ""
        srv.start()
        phone.find_element(By.CSS_SELECTOR, "#game-error button.retry").click()
        WebDriverWait(phone, WAIT).until(lambda d: cell_text(d, "b2") == "X")
        assert phone.find_element(By.ID, "game-error").text == ""
        # An answer that is an error is shown too: resigning a game the
        # server no longer knows (its database replaced).
        srv.kill()
        for f in tmp_path.glob("games.db*"):
            if not f.name.endswith(".log"):
                f.unlink()
        srv.start()
        phone.find_element(By.ID, "resign").click()

        def resign_refused(d):
            # The event stream, refused by the new server, ends with its
            # own message ("Live updates stopped."), which may come after
            # the resign's answer and replace it; the stream ends once, so
            # a second resign's answer then stays.
            text = d.find_element(By.ID, "game-error").text
            if "no game" in text:
                return d.find_elements(By.CSS_SELECTOR, "#game-error button.retry")
            if "Live updates stopped" in text:
                d.find_element(By.ID, "resign").click()
            return False
        WebDriverWait(phone, WAIT).until(resign_refused)
        assert "no game" in phone.find_element(By.ID, "game-error").text
    finally:
        srv.kill()


def test_secrets_leave_when_the_game_ends(server, browsers):
    ana = browsers[0]
    ana.get(server.url + "/")
    Select(ana.find_element(By.ID, "opponent")).select_by_value("human")
    ana.find_element(By.ID, "create-button").click()
    WebDriverWait(ana, WAIT).until(EC.visibility_of_element_located((By.ID, "invite")))
    invite = ana.find_element(By.ID, "invite").get_attribute("value")
    game_id = ana.execute_script("return new URLSearchParams(location.hash.slice(1)).get('g')")
    stored = ana.execute_script("return localStorage.getItem('ttt-game-' + arguments[0])", game_id)
    assert invite and invite.split("t=")[1] in stored
    ana.find_element(By.ID, "resign").click()
    wait_text(ana, "status", "won by resignation")
    assert not ana.find_element(By.ID, "invite-box").is_displayed()
    assert ana.find_element(By.ID, "invite").get_attribute("value") == ""
    assert ana.execute_script("return localStorage.getItem('ttt-game-' + arguments[0])",
                              game_id) is None
    assert "t=" not in ana.execute_script("return location.hash")
    # A reload shows the finished game, with no secret back.
    ana.refresh()
    wait_text(ana, "status", "won by resignation")
    assert not ana.find_element(By.ID, "invite-box").is_displayed()


def sign_up(driver, url, name):
    driver.get(url + "/")
    WebDriverWait(driver, WAIT).until(EC.visibility_of_element_located((By.ID, "account-name")))
    driver.find_element(By.ID, "account-name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys("pass words")
    driver.find_element(By.ID, "signup-button").click()
    wait_text(driver, "who", "Logged in as " + name)
    WebDriverWait(driver, WAIT).until(EC.visibility_of_element_located((By.ID, "seek-form")))


def test_accounts_meet_in_the_lobby_and_are_rated(account_server, browsers):
    ana, bob, watcher = browsers
    url = account_server.url
    sign_up(ana, url, "Ana")
    sign_up(bob, url, "Bob")
    # Ana posts a rated tic-tac-toe seek with a one-minute clock; Bob sees it
    # appear live and accepts.
    Select(ana.find_element(By.ID, "seek-preset")).select_by_value("tictactoe")
    Select(ana.find_element(By.ID, "time-control")).select_by_value("60+0")
    ana.find_element(By.ID, "seek-button").click()
    wait_text(ana, "seeks", "Ana (1500): Tic-tac-toe, rated, 1+0")
    wait_text(bob, "seeks", "Ana (1500): Tic-tac-toe, rated, 1+0")
    bob.find_element(By.CSS_SELECTOR, "#seeks button").click()
    # Both land in the game: Bob by the answer, Ana by her account's stream.
    for d in (ana, bob):
        wait_text(d, "status", "to move")
    x, o = (ana, bob) if ana.find_element(By.ID, "name-x").text == "Ana" else (bob, ana)
    assert o.find_element(By.ID, "name-o").text in ("Ana", "Bob")
    # Both clocks show a minute; X moves first thing, since a first move
    # not made within 30 s of the start is a flag fall; that move starts
    # O's clock, and O, who never moves, loses on time (the server
    # decides; a bounded wait).
    WebDriverWait(x, WAIT).until(EC.visibility_of_element_located((By.ID, "clocks")))
    assert x.find_element(By.ID, "clock-o").text == "1:00"
    click_cell(x, "a1")
    game = bob.execute_script("return new URLSearchParams(location.hash.slice(1)).get('g')")
    watcher.get(f"{url}/#g={game}")
    wait_text(watcher, "status", "to move")
    assert watcher.find_element(By.ID, "controls").get_attribute("hidden") is not None
    for d in (o, watcher):
        WebDriverWait(d, WAIT).until(EC.visibility_of_element_located((By.ID, "clocks")))
    WebDriverWait(watcher, WAIT).until(
        lambda d: "running" in d.find_element(By.ID, "clock-o").get_attribute("class"))
    for d in (ana, bob, watcher):
        WebDriverWait(d, 180).until(
            EC.text_to_be_present_in_element((By.ID, "status"), "(X) won on time"))
    moves = [li.get_attribute("textContent")
             for li in watcher.find_elements(By.CSS_SELECTOR, "#moves li")]
    assert moves == ["a1"]
    # The leaderboard shows both with their new ratings (reloaded until the
    # finished game is rated, a bounded wait).
    def rated(d):
        d.get(f"{url}/#top=tictactoe")
        d.refresh()
        rows = d.find_elements(By.CSS_SELECTOR, "#leaders-table tbody tr")
        found = {r.find_elements(By.TAG_NAME, "td")[1].text: r.find_elements(By.TAG_NAME, "td")[2].text
                 for r in rows}
        return found if len(found) == 2 else False
    ratings = WebDriverWait(watcher, WAIT).until(rated)
    assert set(ratings) == {"Ana", "Bob"}
    assert all(not r.startswith("1500") for r in ratings.values()), ratings
    winner = "Ana" if x is ana else "Bob"
    loser = "Bob" if winner == "Ana" else "Ana"
    assert int(ratings[winner].rstrip("?")) > int(ratings[loser].rstrip("?"))
    # A player's page lists the game.
    watcher.find_element(By.LINK_TEXT, winner).click()
    wait_text(watcher, "player-games", "win against " + loser)


def test_the_lobby_and_leaderboard_fit_a_phone(account_server, phone):
    sign_up(phone, account_server.url, "Pho")
    width, inner = fits(phone)
    assert inner <= 400 and width <= inner, (width, inner)
    phone.find_element(By.ID, "seek-button").click()
    wait_text(phone, "seeks", "Pho (1500)")
    # The keyboard reaches the seek's Cancel button and presses it.
    button = phone.find_element(By.CSS_SELECTOR, "#seeks button")
    assert button.text == "Cancel"
    button.send_keys(Keys.ENTER)
    wait_text(phone, "seeks", "No open seeks yet.")
    # Quick pairing: waiting is shown, and Stop waiting leaves the pool.
    phone.find_element(By.CSS_SELECTOR, "#pairing-buttons button[data-game=connect4]").click()
    wait_text(phone, "pairing-status", "Looking for an opponent at Connect Four")
    phone.find_element(By.ID, "pairing-cancel").click()
    WebDriverWait(phone, WAIT).until(lambda d: d.find_element(By.ID, "pairing-status").text == "")
    phone.get(account_server.url + "/#top=gomoku")
    wait_text(phone, "leaders", "Leaderboard: Gomoku")
    width, inner = fits(phone)
    assert width <= inner, (width, inner)
