"""test_browser.py - the browser client in headless chromium: two players, a spectator, a reload, names as text."""
import shutil

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

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
