// @ts-check
/** The console's script: the key bar on every page, then what the page needs. */
import { setupAccountPage } from "./account.js";
import { setupCaptures } from "./captures.js";
import { setupKeyBar } from "./key.js";
import { setupMemberPage } from "./member.js";
import { setupRequestParts } from "./request-parts.js";
import { setupScope } from "./scope.js";
import { setupTitleBlock } from "./title-block.js";
import { setupToolPage } from "./tool.js";

const page = document.body.dataset.page;
let reload = () => {};
if (page === "tool") {
  setupToolPage();
  setupTitleBlock();
  setupRequestParts();
  reload = setupCaptures();
}
if (page === "account") reload = setupAccountPage();
if (page === "tools" || page === "tool") reload = setupScope();
if (page === "member") setupMemberPage();
setupKeyBar(() => reload());
