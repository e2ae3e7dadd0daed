// Deliberately broken (FIXTURE_BREAK_BUILD): the dashboard must still submit.
int broken( { return 0; }
