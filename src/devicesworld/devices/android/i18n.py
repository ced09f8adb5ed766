"""UI strings in the device's language: English, Korean, French and right-to-left Arabic.

Every label the system or an app shows goes through :func:`tr`, so a Korean profile
shows Korean buttons in both the element list and the screenshot, as B-MoCA's
language randomization does. User data (names, message bodies) is never
translated. Resource ids stay the same in every language, which is what lets one
reference solution drive every profile.
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "ko", "fr", "ar")
RTL_LANGUAGES: Final = frozenset({"ar"})

# key: (en, ko, fr, ar)
_T: dict[str, tuple[str, str, str, str]] = {
    # apps
    "app.messages": ("Messages", "메시지", "Messages", "الرسائل"),
    "app.contacts": ("Contacts", "연락처", "Contacts", "جهات الاتصال"),
    "app.settings": ("Settings", "설정", "Paramètres", "الإعدادات"),
    "app.clock": ("Clock", "시계", "Horloge", "الساعة"),
    "app.calendar": ("Calendar", "캘린더", "Agenda", "التقويم"),
    "app.files": ("Files", "파일", "Fichiers", "الملفات"),
    "app.markor": ("Markor", "Markor", "Markor", "Markor"),
    "app.phone": ("Phone", "전화", "Téléphone", "الهاتف"),
    "app.calculator": ("Calculator", "계산기", "Calculatrice", "الآلة الحاسبة"),
    "app.music": ("Music", "음악", "Musique", "الموسيقى"),
    "app.maps": ("Maps", "지도", "Cartes", "الخرائط"),
    "app.camera": ("Camera", "카메라", "Appareil photo", "الكاميرا"),
    "app.recorder": ("Audio Recorder", "녹음기", "Enregistreur", "مسجل الصوت"),
    "app.browser": ("Browser", "브라우저", "Navigateur", "المتصفح"),
    # system
    "sys.back": ("Back", "뒤로", "Retour", "رجوع"),
    "sys.home": ("Home", "홈", "Accueil", "الرئيسية"),
    "sys.recents": ("Overview", "최근 앱", "Aperçu", "التطبيقات الحديثة"),
    "sys.clear_all": ("Clear all", "모두 지우기", "Tout effacer", "محو الكل"),
    "sys.no_recents": ("No recent items", "최근 항목 없음", "Aucun élément récent", "لا توجد عناصر حديثة"),
    "sys.notifications": ("Notifications", "알림", "Notifications", "الإشعارات"),
    "sys.no_notifications": ("No notifications", "알림 없음", "Aucune notification", "لا توجد إشعارات"),
    "sys.battery": ("Battery {n}%", "배터리 {n}%", "Batterie {n} %", "البطارية {n}%"),
    "sys.wifi": ("Wi-Fi", "Wi-Fi", "Wi-Fi", "Wi-Fi"),
    "sys.bluetooth": ("Bluetooth", "블루투스", "Bluetooth", "بلوتوث"),
    "sys.airplane": ("Airplane mode", "비행기 탑재 모드", "Mode Avion", "وضع الطيران"),
    "sys.dark_mode": ("Dark theme", "어두운 테마", "Thème sombre", "المظهر الداكن"),
    "sys.ok": ("OK", "확인", "OK", "حسنًا"),
    "sys.cancel": ("Cancel", "취소", "Annuler", "إلغاء"),
    "sys.save": ("Save", "저장", "Enregistrer", "حفظ"),
    "sys.delete": ("Delete", "삭제", "Supprimer", "حذف"),
    "sys.edit": ("Edit", "수정", "Modifier", "تعديل"),
    "sys.search": ("Search", "검색", "Rechercher", "بحث"),
    "sys.more": ("More options", "옵션 더보기", "Plus d'options", "مزيد من الخيارات"),
    "sys.navigate_up": ("Navigate up", "위로 이동", "Revenir en haut de la page", "التنقل لأعلى"),
    "sys.rename": ("Rename", "이름 바꾸기", "Renommer", "إعادة تسمية"),
    "sys.move": ("Move", "이동", "Déplacer", "نقل"),
    "sys.open": ("Open", "열기", "Ouvrir", "فتح"),
    "sys.new": ("New", "새로 만들기", "Nouveau", "جديد"),
    "sys.discard": ("Discard", "삭제", "Supprimer", "تجاهل"),
    "sys.keyboard": ("Keyboard", "키보드", "Clavier", "لوحة المفاتيح"),
    # pickers
    "pick.hour": ("Hour", "시", "Heure", "الساعة"),
    "pick.minute": ("Minute", "분", "Minute", "الدقيقة"),
    "pick.am": ("AM", "오전", "AM", "ص"),
    "pick.pm": ("PM", "오후", "PM", "م"),
    "pick.increase": ("Increase {what}", "{what} 증가", "Augmenter {what}", "زيادة {what}"),
    "pick.decrease": ("Decrease {what}", "{what} 감소", "Diminuer {what}", "إنقاص {what}"),
    "pick.prev_month": ("Previous month", "이전 달", "Mois précédent", "الشهر السابق"),
    "pick.next_month": ("Next month", "다음 달", "Mois suivant", "الشهر التالي"),
    "pick.select_date": ("Select date", "날짜 선택", "Sélectionner une date", "اختيار التاريخ"),
    "pick.select_time": ("Select time", "시간 선택", "Sélectionner l'heure", "اختيار الوقت"),
    "pick.to_clock": (
        "Switch to clock mode for the time input",
        "시간 입력을 위해 시계 모드로 전환",
        "Passer en mode horloge pour saisir l'heure",
        "التبديل إلى وضع الساعة لإدخال الوقت",
    ),
    "pick.to_wheels": (
        "Switch to wheel mode for the time input",
        "시간 입력을 위해 휠 모드로 전환",
        "Passer en mode roues pour saisir l'heure",
        "التبديل إلى وضع العجلات لإدخال الوقت",
    ),
    # messages
    "msg.start_chat": ("Start chat", "채팅 시작", "Démarrer une discussion", "بدء محادثة"),
    "msg.to": ("To", "받는 사람", "À", "إلى"),
    "msg.recipient_hint": (
        "Type name or number",
        "이름이나 번호 입력",
        "Saisissez un nom ou un numéro",
        "اكتب اسمًا أو رقمًا",
    ),
    "msg.text_hint": ("Text message", "문자 메시지", "SMS", "رسالة نصية"),
    "msg.send": ("Send", "보내기", "Envoyer", "إرسال"),
    "msg.no_threads": ("No conversations", "대화 없음", "Aucune conversation", "لا توجد محادثات"),
    "msg.next": ("Next", "다음", "Suivant", "التالي"),
    "msg.sent": ("Sent", "전송됨", "Envoyé", "تم الإرسال"),
    "msg.no_recipient": (
        "Add a recipient first",
        "받는 사람을 먼저 추가하세요",
        "Ajoutez d'abord un destinataire",
        "أضف مستلمًا أولاً",
    ),
    "msg.airplane_failed": (
        "Not sent: airplane mode is on",
        "전송 실패: 비행기 탑재 모드",
        "Non envoyé : mode Avion activé",
        "لم يتم الإرسال: وضع الطيران مفعل",
    ),
    "msg.delete_thread": (
        "Delete conversation?",
        "대화를 삭제할까요?",
        "Supprimer la conversation ?",
        "حذف المحادثة؟",
    ),
    "msg.new_message": (
        "New message from {who}",
        "{who}님의 새 메시지",
        "Nouveau message de {who}",
        "رسالة جديدة من {who}",
    ),
    # contacts
    "ct.create": ("Create contact", "연락처 만들기", "Créer un contact", "إنشاء جهة اتصال"),
    "ct.edit": ("Edit contact", "연락처 수정", "Modifier le contact", "تعديل جهة الاتصال"),
    "ct.first": ("First name", "이름", "Prénom", "الاسم الأول"),
    "ct.last": ("Last name", "성", "Nom", "اسم العائلة"),
    "ct.phone": ("Phone", "전화번호", "Téléphone", "الهاتف"),
    "ct.email": ("Email", "이메일", "E-mail", "البريد الإلكتروني"),
    "ct.company": ("Company", "회사", "Entreprise", "الشركة"),
    "ct.notes": ("Notes", "메모", "Notes", "ملاحظات"),
    "ct.search": ("Search contacts", "연락처 검색", "Rechercher des contacts", "البحث في جهات الاتصال"),
    "ct.none": ("No contacts", "연락처 없음", "Aucun contact", "لا توجد جهات اتصال"),
    "ct.name_required": ("Enter a name", "이름을 입력하세요", "Saisissez un nom", "أدخل اسمًا"),
    "ct.saved": ("Contact saved", "연락처 저장됨", "Contact enregistré", "تم حفظ جهة الاتصال"),
    "ct.delete_q": (
        "Delete this contact?",
        "이 연락처를 삭제할까요?",
        "Supprimer ce contact ?",
        "حذف جهة الاتصال هذه؟",
    ),
    "ct.discard_q": (
        "Discard your changes?",
        "변경사항을 삭제할까요?",
        "Supprimer les modifications ?",
        "تجاهل التغييرات؟",
    ),
    "ct.keep_editing": ("Keep editing", "계속 수정", "Continuer", "متابعة التعديل"),
    "ct.call": ("Call", "전화", "Appeler", "اتصال"),
    "ct.text": ("Text", "문자", "SMS", "رسالة"),
    # settings
    "st.network": ("Network & internet", "네트워크 및 인터넷", "Réseau et Internet", "الشبكة والإنترنت"),
    "st.connected": ("Connected devices", "연결된 기기", "Appareils connectés", "الأجهزة المتصلة"),
    "st.display": ("Display", "디스플레이", "Affichage", "الشاشة"),
    "st.system": ("System", "시스템", "Système", "النظام"),
    "st.brightness": ("Brightness level", "밝기 수준", "Luminosité", "مستوى السطوع"),
    "st.font_size": ("Font size", "글꼴 크기", "Taille de police", "حجم الخط"),
    "st.language": ("Languages", "언어", "Langues", "اللغات"),
    "st.use_wifi": ("Use Wi-Fi", "Wi-Fi 사용", "Utiliser le Wi-Fi", "استخدام Wi-Fi"),
    "st.use_bt": ("Use Bluetooth", "블루투스 사용", "Utiliser le Bluetooth", "استخدام بلوتوث"),
    "st.font_small": ("Small", "작게", "Petite", "صغير"),
    "st.font_default": ("Default", "기본", "Par défaut", "افتراضي"),
    "st.font_large": ("Large", "크게", "Grande", "كبير"),
    "st.font_largest": ("Largest", "가장 크게", "La plus grande", "الأكبر"),
    "st.about": ("About phone", "휴대전화 정보", "À propos du téléphone", "لمحة عن الهاتف"),
    "st.phone_number": ("Phone number", "전화번호", "Numéro de téléphone", "رقم الهاتف"),
    "st.device_name": ("Device name", "기기 이름", "Nom de l'appareil", "اسم الجهاز"),
    "st.model": ("Model", "모델", "Modèle", "الطراز"),
    "st.on": ("On", "사용", "Activé", "تشغيل"),
    "st.off": ("Off", "사용 안함", "Désactivé", "إيقاف"),
    # clock
    "ck.alarm": ("Alarm", "알람", "Alarme", "المنبّه"),
    "ck.timer": ("Timer", "타이머", "Minuteur", "المؤقت"),
    "ck.add_alarm": ("Add alarm", "알람 추가", "Ajouter une alarme", "إضافة منبّه"),
    "ck.no_alarms": ("No alarms", "알람 없음", "Aucune alarme", "لا توجد منبّهات"),
    "ck.label": ("Label", "라벨", "Libellé", "التصنيف"),
    "ck.add_label": ("Add label", "라벨 추가", "Ajouter un libellé", "إضافة تصنيف"),
    "ck.repeat": ("Repeat", "반복", "Répéter", "تكرار"),
    "ck.delete_alarm": ("Delete alarm", "알람 삭제", "Supprimer l'alarme", "حذف المنبّه"),
    "ck.start": ("Start", "시작", "Démarrer", "بدء"),
    "ck.pause": ("Pause", "일시중지", "Pause", "إيقاف مؤقت"),
    "ck.reset": ("Reset", "초기화", "Réinitialiser", "إعادة الضبط"),
    "ck.timer_hint": ("Minutes", "분", "Minutes", "دقائق"),
    "ck.alarm_set": (
        "Alarm set for {time}",
        "{time}에 알람 설정됨",
        "Alarme définie pour {time}",
        "تم ضبط المنبّه على {time}",
    ),
    "ck.days": ("S,M,T,W,T,F,S", "일,월,화,수,목,금,토", "D,L,M,M,J,V,S", "ح,ن,ث,ر,خ,ج,س"),
    "ck.dayn": (
        "Sunday,Monday,Tuesday,Wednesday,Thursday,Friday,Saturday",
        "일요일,월요일,화요일,수요일,목요일,금요일,토요일",
        "dimanche,lundi,mardi,mercredi,jeudi,vendredi,samedi",
        "الأحد,الاثنين,الثلاثاء,الأربعاء,الخميس,الجمعة,السبت",
    ),
    # calendar
    "cal.new_event": ("New event", "새 일정", "Nouvel événement", "حدث جديد"),
    "cal.title": ("Title", "제목", "Titre", "العنوان"),
    "cal.location": ("Location", "위치", "Lieu", "الموقع"),
    "cal.description": ("Description", "설명", "Description", "الوصف"),
    "cal.start": ("Start", "시작", "Début", "البداية"),
    "cal.end": ("End", "종료", "Fin", "النهاية"),
    "cal.no_events": ("No events", "일정 없음", "Aucun événement", "لا توجد أحداث"),
    "cal.title_required": (
        "Title cannot be empty",
        "제목을 입력하세요",
        "Le titre est obligatoire",
        "العنوان مطلوب",
    ),
    "cal.end_before_start": (
        "The end cannot be before the start",
        "종료가 시작보다 빠를 수 없습니다",
        "La fin ne peut précéder le début",
        "لا يمكن أن تسبق النهاية البداية",
    ),
    "cal.today": ("Today", "오늘", "Aujourd'hui", "اليوم"),
    "cal.delete_q": (
        "Delete this event?",
        "이 일정을 삭제할까요?",
        "Supprimer cet événement ?",
        "حذف هذا الحدث؟",
    ),
    "cal.months": (
        "January,February,March,April,May,June,July,August,September,October,November,December",
        "1월,2월,3월,4월,5월,6월,7월,8월,9월,10월,11월,12월",
        "janvier,février,mars,avril,mai,juin,juillet,août,septembre,octobre,novembre,décembre",
        "يناير,فبراير,مارس,أبريل,مايو,يونيو,يوليو,أغسطس,سبتمبر,أكتوبر,نوفمبر,ديسمبر",
    ),
    # files / markor
    "fl.internal": (
        "Internal storage",
        "내부 저장공간",
        "Mémoire de stockage interne",
        "وحدة التخزين الداخلية",
    ),
    "fl.drive": ("Drive", "드라이브", "Drive", "Drive"),
    "fl.empty": ("No items", "항목 없음", "Aucun élément", "لا توجد عناصر"),
    "fl.new_name": ("New name", "새 이름", "Nouveau nom", "اسم جديد"),
    "fl.move_here": ("Move here", "여기로 이동", "Déplacer ici", "النقل إلى هنا"),
    "fl.copy": ("Copy", "복사", "Copier", "نسخ"),
    "fl.copy_here": ("Copy here", "여기에 복사", "Copier ici", "النسخ إلى هنا"),
    "fl.exists": (
        "A file with that name exists",
        "같은 이름의 파일이 있습니다",
        "Ce nom existe déjà",
        "يوجد ملف بهذا الاسم",
    ),
    "fl.delete_q": ("Delete {name}?", "{name}을(를) 삭제할까요?", "Supprimer {name} ?", "حذف {name}؟"),
    "mk.new_file": ("Create new file", "새 파일 만들기", "Créer un fichier", "إنشاء ملف جديد"),
    "mk.name": ("Name", "이름", "Nom", "الاسم"),
    "mk.no_notes": ("No documents", "문서 없음", "Aucun document", "لا توجد مستندات"),
    "mk.saved": ("Saved", "저장됨", "Enregistré", "تم الحفظ"),
    "mk.content_hint": ("Write here", "여기에 작성", "Écrire ici", "اكتب هنا"),
    "mk.unsaved_q": (
        "Save changes?",
        "변경사항을 저장할까요?",
        "Enregistrer les modifications ?",
        "حفظ التغييرات؟",
    ),
    # phone
    "ph.keypad": ("Keypad", "키패드", "Clavier", "لوحة المفاتيح"),
    "ph.recents": ("Recents", "최근기록", "Récents", "الأخيرة"),
    "ph.call": ("Call", "통화", "Appeler", "اتصال"),
    "ph.end_call": ("End call", "통화 종료", "Raccrocher", "إنهاء المكالمة"),
    "ph.calling": ("Calling {who}…", "{who}에게 전화 거는 중…", "Appel de {who}…", "جارٍ الاتصال بـ {who}…"),
    "ph.no_calls": ("No recent calls", "최근 통화 없음", "Aucun appel récent", "لا توجد مكالمات"),
    "ph.number": ("Phone number", "전화번호", "Numéro de téléphone", "رقم الهاتف"),
    "ph.delete_digit": ("Backspace", "지우기", "Retour arrière", "مسح"),
    "ph.incoming": ("Incoming", "수신", "Entrant", "واردة"),
    "ph.outgoing": ("Outgoing", "발신", "Sortant", "صادرة"),
    "ph.missed": ("Missed", "부재중", "Manqué", "فائتة"),
    # calculator
    "calc.equals": ("equals", "같음", "égal", "يساوي"),
    "calc.clear": ("clear", "지우기", "effacer", "مسح"),
    "calc.backspace": ("backspace", "백스페이스", "retour arrière", "مسح للخلف"),
    "calc.error": ("Error", "오류", "Erreur", "خطأ"),
    # music
    "mu.songs": ("Songs", "노래", "Titres", "الأغاني"),
    "mu.playlists": ("Playlists", "재생목록", "Playlists", "قوائم التشغيل"),
    "mu.play": ("Play", "재생", "Lecture", "تشغيل"),
    "mu.pause": ("Pause", "일시중지", "Pause", "إيقاف مؤقت"),
    "mu.next": ("Next", "다음", "Suivant", "التالي"),
    "mu.new_playlist": ("New playlist", "새 재생목록", "Nouvelle playlist", "قائمة تشغيل جديدة"),
    "mu.add_to_playlist": (
        "Add to playlist",
        "재생목록에 추가",
        "Ajouter à une playlist",
        "إضافة إلى قائمة تشغيل",
    ),
    "mu.now_playing": ("Now playing", "지금 재생 중", "En cours de lecture", "قيد التشغيل الآن"),
    "mu.added": ("Added to {name}", "{name}에 추가됨", "Ajouté à {name}", "تمت الإضافة إلى {name}"),
    "mu.no_songs": ("No songs", "노래 없음", "Aucun titre", "لا توجد أغانٍ"),
    # maps
    "mp.search_hint": ("Search here", "여기서 검색", "Rechercher ici", "البحث هنا"),
    "mp.saved": ("Saved", "저장됨", "Enregistrés", "المحفوظة"),
    "mp.save": ("Save", "저장", "Enregistrer", "حفظ"),
    "mp.unsave": ("Saved ✓", "저장됨 ✓", "Enregistré ✓", "محفوظ ✓"),
    "mp.no_results": ("No results", "결과 없음", "Aucun résultat", "لا توجد نتائج"),
    "mp.address": ("Address", "주소", "Adresse", "العنوان"),
    "mp.coords": ("Coordinates", "좌표", "Coordonnées", "الإحداثيات"),
    # camera / recorder
    "cam.shutter": ("Shutter", "셔터", "Déclencheur", "الغالق"),
    "cam.saved": ("Photo saved", "사진 저장됨", "Photo enregistrée", "تم حفظ الصورة"),
    "rec.record": ("Record", "녹음", "Enregistrer", "تسجيل"),
    "rec.stop": ("Stop", "중지", "Arrêter", "إيقاف"),
    "rec.recording": ("Recording…", "녹음 중…", "Enregistrement…", "جارٍ التسجيل…"),
    "rec.list": ("Recordings", "녹음 목록", "Enregistrements", "التسجيلات"),
    "rec.saved": ("Saved {name}", "{name} 저장됨", "{name} enregistré", "تم حفظ {name}"),
    # browser
    "br.url_hint": (
        "Search or type URL",
        "검색어 또는 URL 입력",
        "Rechercher ou saisir une URL",
        "ابحث أو اكتب عنوان URL",
    ),
    "br.not_found": (
        "This site can't be reached",
        "사이트에 연결할 수 없음",
        "Ce site est inaccessible",
        "لا يمكن الوصول إلى هذا الموقع",
    ),
    "br.offline": (
        "No internet: airplane mode",
        "인터넷 없음: 비행기 탑재 모드",
        "Pas d'Internet : mode Avion",
        "لا يوجد إنترنت: وضع الطيران",
    ),
    # flows of issue #34: message direction, agenda and search, dated alarms, permissions, share
    "msg.received_from": ("Received from {who}", "{who}님이 보냄", "Reçu de {who}", "مستلمة من {who}"),
    "msg.sent_to": ("Sent to {who}", "{who}님에게 보냄", "Envoyé à {who}", "مرسلة إلى {who}"),
    "cal.agenda": ("Agenda", "일정 목록", "Planning", "جدول الأعمال"),
    "cal.month_view": ("Month view", "월별 보기", "Vue mensuelle", "عرض الشهر"),
    "cal.search": ("Search", "검색", "Rechercher", "بحث"),
    "cal.search_hint": ("Search events", "일정 검색", "Rechercher des événements", "البحث في الأحداث"),
    "cal.no_upcoming": (
        "No upcoming events",
        "예정된 일정 없음",
        "Aucun événement à venir",
        "لا توجد أحداث قادمة",
    ),
    "ck.date": ("Date", "날짜", "Date", "التاريخ"),
    "ck.schedule": ("Schedule alarm", "알람 예약", "Programmer l'alarme", "جدولة المنبّه"),
    "ck.not_scheduled": ("Not scheduled", "예약 안 됨", "Non programmée", "غير مجدول"),
    "ck.today": ("Today", "오늘", "Aujourd'hui", "اليوم"),
    "ck.tomorrow": ("Tomorrow", "내일", "Demain", "غدًا"),
    "pick.choose_year": ("Choose year", "연도 선택", "Choisir l'année", "اختر السنة"),
    "perm.allow": ("Allow", "허용", "Autoriser", "سماح"),
    "perm.deny": ("Don't allow", "허용 안함", "Ne pas autoriser", "عدم السماح"),
    "perm.ask": (
        "Allow {app} to {what}?",
        "{app}에서 {what}하도록 허용하시겠습니까?",
        "Autoriser {app} à {what} ?",
        "هل تريد السماح لتطبيق {app} بـ{what}؟",
    ),
    "perm.needed": (
        "{app} can't work without permission to {what}.",
        "{app}은(는) {what} 권한 없이 작동할 수 없습니다.",
        "{app} ne peut pas fonctionner sans l'autorisation de {what}.",
        "لا يمكن لتطبيق {app} العمل دون إذن {what}.",
    ),
    "perm.grant": ("Grant permission", "권한 허용", "Accorder l'autorisation", "منح الإذن"),
    "perm.sms": (
        "send and view SMS messages",
        "SMS 메시지 전송 및 보기",
        "envoyer et afficher des SMS",
        "إرسال الرسائل القصيرة وعرضها",
    ),
    "perm.contacts": (
        "access your contacts",
        "주소록에 액세스",
        "accéder à vos contacts",
        "الوصول إلى جهات الاتصال",
    ),
    "perm.camera": (
        "take pictures and record video",
        "사진 촬영 및 동영상 녹화",
        "prendre des photos et enregistrer des vidéos",
        "التقاط الصور وتسجيل الفيديو",
    ),
    "perm.microphone": ("record audio", "오디오 녹음", "enregistrer de l'audio", "تسجيل الصوت"),
    "perm.storage": (
        "access files on your device",
        "기기의 파일에 액세스",
        "accéder aux fichiers de l'appareil",
        "الوصول إلى الملفات على جهازك",
    ),
    "perm.calendar": (
        "access your calendar",
        "캘린더에 액세스",
        "accéder à votre agenda",
        "الوصول إلى التقويم",
    ),
    "perm.phone": (
        "make and manage phone calls",
        "전화 걸기 및 관리",
        "passer et gérer des appels",
        "إجراء المكالمات الهاتفية وإدارتها",
    ),
    "perm.media": (
        "access music and audio",
        "음악 및 오디오에 액세스",
        "accéder à la musique et à l'audio",
        "الوصول إلى الموسيقى والصوت",
    ),
    "perm.location": (
        "access this device's location",
        "기기 위치에 액세스",
        "accéder à la position de l'appareil",
        "الوصول إلى موقع هذا الجهاز",
    ),
    "fl.cant_share": (
        "Only text files can be shared here",
        "여기서는 텍스트 파일만 공유할 수 있습니다",
        "Seuls les fichiers texte peuvent être partagés ici",
        "يمكن مشاركة الملفات النصية فقط هنا",
    ),
    "sys.share": ("Share", "공유", "Partager", "مشاركة"),
    "sys.share_via": ("Share via", "공유 방법", "Partager via", "المشاركة عبر"),
    "sys.more_options": ("More options", "옵션 더보기", "Plus d'options", "خيارات إضافية"),
}


def tr(lang: str, key: str, **fmt: object) -> str:
    """The string ``key`` in ``lang`` (English when the language has no table), formatted."""
    entry = _T.get(key)
    if entry is None:
        return key
    i = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    value = entry[i] or entry[0]
    return value.format(**fmt) if fmt else value


def tr_list(lang: str, key: str) -> list[str]:
    """A comma-separated table entry (day or month names) as a list."""
    return tr(lang, key).split(",")


def keys() -> list[str]:
    return sorted(_T)
