"""The edc actions, one a file: ``exchange``, ``initiative``, ``hesitation``, ``shock``,
``spend``, ``refresh``, ``hit``, ``bloodloss``, ``knockdown``, ``knockout``, ``terrain``,
``opponents``, ``ride_by``, ``unhorse``, ``ride``, ``missile_prep``, ``missile``."""
